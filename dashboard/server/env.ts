/**
 * Bindings of the dashboard's server (Pages Functions; dashboard/wrangler.jsonc) and the
 * variables its middleware sets on the Hono context.
 */
import type { AccountsDb } from "../../src/accounts/database";
import type { Role } from "./auth/roles";
import type { DashboardConfig } from "./config";

/** Bindings of the dashboard's Pages Functions; read only by dashboard/server/config.ts. */
export interface DashboardEnv {
  /** Service binding to the API worker (`sightline-api`): /internal and /api routes. */
  API: Fetcher;
  /** Same PostgreSQL as the API, through Hyperdrive: the server uses Better Auth's tables only (src/accounts/schema.ts). */
  HYPERDRIVE?: Hyperdrive;
  /** Alternative to Hyperdrive (Neon serverless driver), as in src/db/driver/client.ts. */
  DATABASE_URL?: string;
  NEON_WSPROXY?: string;
  /** Shared with the API; sent only on server-to-server calls, never to a browser. */
  INTERNAL_API_SECRET: string;
  /** Signs session cookies (Better Auth); at least 32 random characters. */
  BETTER_AUTH_SECRET: string;
  /** Public URL of the dashboard, e.g. https://app.example.com (cookies, origin checks, return URLs). */
  DASHBOARD_URL: string;
  /** Public URLs shown in the onboarding snippets. */
  PUBLIC_API_URL: string;
  PUBLIC_PROXY_URL: string;
}

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
