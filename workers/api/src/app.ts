/**
 * Assembles the API worker's Hono app: middleware, resource routers, OpenAPI document and
 * error rendering. Holds no business logic.
 */
import { swaggerUI } from "@hono/swagger-ui";
import { OpenAPIHono } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { config } from "./middleware/config";
import { requestBodyLimit } from "../../../src/http/body-limit";
import type { AppBindings } from "./env";
import { renderError, routeNotFound } from "../../../src/http/error-handler";
import { methodNotAllowed } from "./middleware/method-not-allowed";
import { requestLog } from "./middleware/request-log";
import { alertWebhookRoutes } from "./routes/alert-webhooks";
import { billingRoutes } from "./routes/billing";
import { internalRoutes } from "./routes/internal";
import { keyCheckRoutes } from "./routes/key-check";
import { membershipRoutes } from "./routes/memberships";
import { piiRevealRoutes } from "./routes/pii-reveals";
import { sweepRoutes } from "./routes/sweep";
import { bodyUpkeepRoutes } from "./routes/body-upkeep";
import { ingestRoutes } from "./routes/ingest";
import { otlpRoutes } from "./routes/otlp";
import { policyRoutes } from "./routes/policy";
import { rescoreRoutes } from "./routes/rescore";
import { reviewRoutes } from "./routes/reviews";
import { validationHook } from "../../../src/http/validation";
import { requestRoutes } from "./routes/requests";
import { sessionRoutes } from "./routes/sessions";
import { scoreRoutes } from "./routes/scores";
import { statsRoutes } from "./routes/stats";
import { paymentWebhookRoutes } from "./routes/payment-webhook";

/**
 * Path of the pinned Swagger UI files, served as static assets from `public/` (see
 * public/docs/README.md); the page loads nothing from elsewhere.
 */
export const DOCS_ASSETS_BASE = "/docs";

/** Serves Swagger UI at /docs unless `DOCS_ENABLED` is "false" (`c.var.config.docsEnabled`). */
function docs(): MiddlewareHandler<AppBindings> {
  // `baseUrl` replaces the CDN: the page loads /docs/swagger-ui-dist/swagger-ui-bundle.js.
  const ui = swaggerUI({ url: "/openapi.json", title: "Sightline API", baseUrl: DOCS_ASSETS_BASE }) as unknown as MiddlewareHandler<AppBindings>;
  return async function docs(c, next) {
    if (!c.var.config.docsEnabled) return c.json({ detail: "API docs are disabled on this deployment" }, 404);
    return ui(c, next);
  };
}

/** Builds the API app. */
export function createApp() {
  const app = new OpenAPIHono<AppBindings>({ defaultHook: validationHook });

  // First, so that every response (405 and 413 included) and every log line has the request id.
  app.use("*", requestLog());
  // Then the worker's config (src/config/api.ts): invalid variables answer 500 naming them.
  app.use("*", config());
  app.use(
    "*",
    methodNotAllowed(() => app.routes),
  );
  app.use(
    "*",
    requestBodyLimit<AppBindings>((c) => c.var.config.logMaxBytes),
  );
  // Each route carries its own database, authentication and input middleware (routes/openapi.ts, `access`).

  // One sub-app per resource; each declares its full paths, so all are mounted at the root.
  // Chained, so that the app's type carries every route: the dashboard's typed client (`hc`,
  // dashboard/server/lib/api-client.ts) is typed with it (`ApiApp`).
  const api = app
    .route("/", ingestRoutes)
    .route("/", otlpRoutes)
    .route("/", requestRoutes)
    .route("/", sessionRoutes)
    .route("/", scoreRoutes)
    .route("/", statsRoutes)
    .route("/", billingRoutes)
    .route("/", internalRoutes)
    .route("/", membershipRoutes)
    .route("/", piiRevealRoutes)
    .route("/", keyCheckRoutes)
    .route("/", sweepRoutes)
    .route("/", bodyUpkeepRoutes)
    .route("/", paymentWebhookRoutes)
    .route("/", policyRoutes)
    .route("/", rescoreRoutes)
    .route("/", reviewRoutes)
    .route("/", alertWebhookRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "ServiceKey", {
    type: "apiKey",
    in: "header",
    name: "X-Service-Key",
    description: "Project API key (slk_ + 48 hex)",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "BearerKey", {
    type: "http",
    scheme: "bearer",
    description: "The same project API key as `Authorization: Bearer <key>`",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "InternalSecret", {
    type: "apiKey",
    in: "header",
    name: "X-Internal-Secret",
    description: "Server-to-server secret of the dashboard (INTERNAL_API_SECRET); never sent to browsers",
  });
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Sightline API",
      version: "0.1.0",
      description: 'LLM request logging and safety scoring. Every error body is {"detail": "..."}.',
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get("/docs", docs());

  app.notFound(routeNotFound);
  app.onError(renderError);
  return api;
}

/** The API app's type: its routes, inputs and outputs, for `hc<ApiApp>` (hono/client). */
export type ApiApp = ReturnType<typeof createApp>;
