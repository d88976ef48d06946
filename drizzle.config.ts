import { defineConfig } from "drizzle-kit";

/** drizzle-kit: `npm run db:generate` writes SQL migrations from src/db/schema/: the API's
 * tables (one module per domain, gathered by index.ts), alerts.ts (alert webhooks) and auth.ts
 * (the dashboard's accounts). */
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema/index.ts", "./src/db/schema/alerts.ts", "./src/db/schema/auth.ts"],
  out: "./migrations",
});
