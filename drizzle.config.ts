import { defineConfig } from "drizzle-kit";

/** drizzle-kit: `npm run db:generate` writes SQL migrations from src/db/schema/tables.ts,
 * src/db/schema/alerts.ts (alert webhooks) and src/db/schema/auth.ts (the dashboard's accounts). */
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema/tables.ts", "./src/db/schema/alerts.ts", "./src/db/schema/auth.ts"],
  out: "./migrations",
});
