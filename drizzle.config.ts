import { defineConfig } from "drizzle-kit";

/** drizzle-kit: `npm run db:generate` writes SQL migrations from src/db/schema.ts,
 * src/db/alert-schema.ts (alert webhooks) and src/db/auth-schema.ts (the dashboard's accounts). */
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema.ts", "./src/db/alert-schema.ts", "./src/db/auth-schema.ts"],
  out: "./migrations",
});
