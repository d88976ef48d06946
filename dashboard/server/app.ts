/**
 * The dashboard's server: a Hono app under /api, served by Pages Functions
 * (functions/[[path]].ts) and movable unchanged to a Worker with static assets.
 *
 * - /api/auth/*: Better Auth (sign-up, sign-in, sign-out, session, organisations, members).
 * - /api/projects/:projectId/{requests,stats,safety-scores}: logged calls, overview series,
 *   review verdicts (routes/requests.ts), forwarded to the API.
 * - /api/projects, /api/projects/:projectId/{keys,billing,activity}: our routes, each with its
 *   own session and role guards (server/lib/middleware.ts).
 * The server's database handle serves Better Auth's tables alone (src/accounts/); projects,
 * memberships as authorisation and the reveal audit are the API's, asked for over /internal.
 * Writes pass two CSRF checks: hono/csrf (Origin must be the dashboard's) and JSON-only bodies.
 * Every body is limited to the API's 2 MiB (413) and checked by `checkedInput` (422 for NUL,
 * lone surrogates, deep nesting, over-long fields) before a route or Better Auth reads it.
 * `DashboardApp` (the chained app's type) carries every route for `hc` (tests, tools).
 */
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { secureHeaders } from "hono/secure-headers";
import { accountsDatabase } from "../../src/accounts/database";
import { renderError } from "../../src/http/error-handler";
import { requestBodyLimit } from "../../src/http/body-limit";
import { AUTH_BASE_PATH } from "./auth/auth";
import { config } from "./config";
import type { DashboardBindings } from "./env";
import { authRequest, checkedInput } from "./lib/input";
import { authFor, jsonWrites } from "./lib/middleware";
import { billingRoutes } from "./routes/billing";
import { keyRoutes } from "./routes/keys";
import { policyRoutes } from "./routes/policy";
import { projectRoutes } from "./routes/projects";
import { requestRoutes } from "./routes/requests";
import { sessionRoutes } from "./routes/sessions";
import { activityRoutes } from "./routes/usage";
import { webhookRoutes } from "./routes/webhooks";

/** Builds the dashboard's server app. */
export function createDashboardApp() {
  const app = new Hono<DashboardBindings>();
  app.onError(renderError);
  app.use("/api/*", secureHeaders());
  app.use("/api/*", async function noStore(c, next) {
    await next();
    c.header("Cache-Control", "no-store");
  });
  app.use("/api/*", config());
  app.use("/api/*", (c, next) => csrf({ origin: new URL(c.var.config.dashboardUrl).origin })(c, next));
  app.use("/api/*", requestBodyLimit<DashboardBindings>());
  app.use("/api/*", checkedInput());
  app.use("/api/*", accountsDatabase<DashboardBindings>());
  app.on(["GET", "POST"], `${AUTH_BASE_PATH}/*`, (c) => authFor(c).handler(authRequest(c)));
  app.use("/api/projects/*", jsonWrites());
  app.use("/api/projects", jsonWrites());
  const routes = app
    .route("/api/projects", projectRoutes)
    .route("/api/projects/:projectId/keys", keyRoutes)
    .route("/api/projects/:projectId/policy", policyRoutes)
    .route("/api/projects/:projectId/billing", billingRoutes)
    .route("/api/projects/:projectId/activity", activityRoutes)
    .route("/api/projects/:projectId/webhooks", webhookRoutes)
    .route("/api/projects/:projectId/sessions", sessionRoutes)
    .route("/api/projects/:projectId", requestRoutes);
  app.notFound((c) => c.json({ detail: "not found" }, 404));
  return routes;
}

/** The dashboard server app's type: every route with its input and output, for `hc<DashboardApp>`. */
export type DashboardApp = ReturnType<typeof createDashboardApp>;
