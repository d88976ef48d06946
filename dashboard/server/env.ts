/**
 * Bindings of the dashboard's server (Pages Functions; dashboard/wrangler.jsonc) and the
 * variables its middleware sets on the Hono context.
 */
import type { z } from "zod";
import type { AccountsDb } from "../../src/accounts/database";
import type { Role } from "./auth/roles";
import type { DashboardConfig, dashboardVars } from "./config";

/**
 * Bindings of the dashboard's Pages Functions, declared once: what its config schema reads as it
 * arrives (`dashboardVars`, ./config.ts: the `API` service binding, HYPERDRIVE or DATABASE_URL for
 * Better Auth's tables, INTERNAL_API_SECRET, BETTER_AUTH_SECRET, DASHBOARD_URL, the public URLs).
 * Pages has no generated bindings of its own, so the schema is the whole declaration. Read only by
 * dashboard/server/config.ts.
 */
export type DashboardEnv = z.input<typeof dashboardVars>;

/** A signed-in user as the server routes see it. */
export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** Context variables: `db` per request (Better Auth's tables only), `user` after `requireSession`, `project` after `projectAccess`. */
export interface DashboardVariables {
  /** The server's configuration, parsed once per env object (dashboard/server/config.ts). */
  config: DashboardConfig;
  db: AccountsDb;
  user: SessionUser;
  project: { id: string; organizationId: string; role: Role };
}

/** Hono type parameters of every dashboard sub-app. */
export interface DashboardBindings {
  Bindings: DashboardEnv;
  Variables: DashboardVariables;
}
