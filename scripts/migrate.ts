/**
 * `npm run migrate`: applies the drizzle-kit migrations in migrations/ to $DATABASE_URL (for
 * a deployment: Neon's direct, non-pooled URL). Locally, `npm run dev` migrates by itself.
 */
import { applyMigrations } from "./lib/postgres";

const url = process.env.DATABASE_URL;
if (!url) {
  console.error("set DATABASE_URL to the Postgres URL to migrate");
  process.exit(1);
}
await applyMigrations(url);
console.log("migrations applied");
