import { defineConfig } from "drizzle-kit";

/** drizzle-kit: `npm run db:generate` writes SQL migrations from every table module: the API's
 * tables in src/db/schema/ (one module per domain, gathered by index.ts; alerts.ts, the alert
 * webhooks; organizations.ts, which organisation owns a project; pii.ts, the reveal audit) and
 * Better Auth's in src/accounts/schema.ts (the dashboard's accounts, outside src/db/ so the
 * dashboard server can name them; docs/architecture.md "Who owns which table"). */
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/db/schema/index.ts", "./src/db/schema/alerts.ts", "./src/db/schema/organizations.ts", "./src/db/schema/pii.ts", "./src/accounts/schema.ts"],
  out: "./migrations",
});
