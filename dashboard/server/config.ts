/**
 * The dashboard server's configuration: dashboard/wrangler.jsonc `vars`, its secrets and its
 * bindings, validated once per env object (`dashboardConfig`) and typed; routes read it as
 * `c.var.config` (set by `config()` below). A bad value is a `ConfigError` naming it, answered
 * 500 by `renderError` (src/http/error-handler.ts).
 */
import type { MiddlewareHandler } from "hono";
import { z } from "zod";
import { databaseVars, toDbConfig } from "../../src/config/database";
import { configParser } from "../../src/config/parse";
import { binding, requiredHttpUrlVar, requiredSecretVar, textVar } from "../../src/config/vars";

/** The dashboard server's variables and bindings as they arrive (strings; see docs/configuration.md). */
export const dashboardVars = z.object({
  /** Service binding to the API worker (`sightline-api`). */
  API: binding<Fetcher>(),
  ...databaseVars,
  /** Shared with the API; sent only on server-to-server calls, never to a browser. */
  INTERNAL_API_SECRET: requiredSecretVar,
  /** Signs session cookies (Better Auth); at least 32 random characters. */
  BETTER_AUTH_SECRET: requiredSecretVar,
  /** Public URL of the dashboard (cookies, origin checks, return URLs). */
  DASHBOARD_URL: requiredHttpUrlVar,
  /** Public URLs shown in the onboarding snippets. */
  PUBLIC_API_URL: textVar,
  PUBLIC_PROXY_URL: textVar,
});

const dashboardConfigSchema = dashboardVars.transform((v) => ({
  api: v.API,
  db: toDbConfig(v),
  internalApiSecret: v.INTERNAL_API_SECRET,
  betterAuthSecret: v.BETTER_AUTH_SECRET,
  dashboardUrl: v.DASHBOARD_URL,
  publicApiUrl: v.PUBLIC_API_URL ?? "",
  publicProxyUrl: v.PUBLIC_PROXY_URL ?? "",
}));

/** The dashboard server's typed configuration. */
export type DashboardConfig = z.output<typeof dashboardConfigSchema>;

/** The dashboard server's config from its env, parsed once per env object; throws `ConfigError`. */
export const dashboardConfig = configParser(dashboardConfigSchema);

/**
 * Sets `c.var.config` (first, so that every later middleware can read it). Typed with the one
 * variable it sets, so this module does not import the app's bindings (env.ts imports it).
 */
export function config(): MiddlewareHandler<{ Bindings: object; Variables: { config: DashboardConfig } }> {
  return async function config(c, next) {
    c.set("config", dashboardConfig(c.env));
    await next();
  };
}
