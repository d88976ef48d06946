/**
 * The dashboard's server: a Hono app under /api, served by Pages Functions
 * (functions/[[path]].ts) and movable unchanged to a Worker with static assets.
 *
 * - /api/auth/*: Better Auth (sign-up, sign-in, sign-out, session, organisations, members).
 * - /api/projects/:projectId/{requests,stats,safety-scores}: logged calls, overview series,
 *   review verdicts (routes/requests.ts), forwarded to the API.
 * - /api/projects, /api/projects/:projectId/{keys,billing,activity}: our routes, each with its
 *   own session and role guards (server/lib/middleware.ts).
 * Writes pass two CSRF checks: hono/csrf (Origin must be the dashboard's) and JSON-only bodies.
 */
import { Hono } from "hono";
import { csrf } from "hono/csrf";
import { secureHeaders } from "hono/secure-headers";
import { renderError } from "../../src/error-handler";
import { AUTH_BASE_PATH } from "./auth/auth";
import type { DashboardBindings } from "./env";
import { authFor, database, jsonWrites } from "./lib/middleware";
import { billingRoutes } from "./routes/billing";
import { keyRoutes } from "./routes/keys";
import { policyRoutes } from "./routes/policy";
import { projectRoutes } from "./routes/projects";
import { requestRoutes } from "./routes/requests";
import { activityRoutes } from "./routes/usage";
import { webhookRoutes } from "./routes/webhooks";

/** Builds the dashboard's server app. */
export function createDashboardApp() {
  const app = new Hono<DashboardBindings>();
  app.onError(renderError as never);
  app.use("/api/*", secureHeaders());
  app.use("/api/*", async function noStore(c, next) {
    await next();
    c.header("Cache-Control", "no-store");
  });
  app.use("/api/*", (c, next) => csrf({ origin: new URL(c.env.DASHBOARD_URL).origin })(c, next));
  app.use("/api/*", database());
  app.on(["GET", "POST"], `${AUTH_BASE_PATH}/*`, (c) => authFor(c).handler(c.req.raw));
  app.use("/api/projects/*", jsonWrites());
  app.use("/api/projects", jsonWrites());
  app.route("/api/projects", projectRoutes);
  app.route("/api/projects/:projectId/keys", keyRoutes);
  app.route("/api/projects/:projectId/policy", policyRoutes);
  app.route("/api/projects/:projectId/billing", billingRoutes);
  app.route("/api/projects/:projectId/activity", activityRoutes);
  app.route("/api/projects/:projectId/webhooks", webhookRoutes);
  app.route("/api/projects/:projectId", requestRoutes);
  app.notFound((c) => c.json({ detail: "not found" }, 404));
  return app;
}
