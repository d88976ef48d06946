/**
 * Assembles the API worker's Hono app: middleware, resource routers, OpenAPI document and
 * error rendering. Holds no business logic.
 */
import { swaggerUI } from "@hono/swagger-ui";
import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { MiddlewareHandler } from "hono";
import { internalAuth, keyAuth, logAuth, projectAuth } from "./auth/middleware";
import { database } from "./db/middleware";
import type { AppBindings } from "./env";
import { methodNotAllowed, renderError, routeNotFound } from "./error-handler";
import { billingRoutes } from "./routes/billing";
import { internalRoutes } from "./routes/internal";
import { keyCheckRoutes } from "./routes/key-check";
import { sweepRoutes } from "./routes/sweep";
import { logRoutes } from "./routes/log";
import { describeIssues } from "./routes/openapi";
import { requestRoutes } from "./routes/requests";
import { scoreRoutes } from "./routes/scores";
import { webhookRoutes } from "./routes/webhook";

/** Default largest POST /internal/log body: 2 MiB (the `LOG_MAX_BYTES` variable overrides). */
export const DEFAULT_LOG_MAX_BYTES = 2 * 1024 * 1024;

/** Refuses bodies larger than `LOG_MAX_BYTES` with 413, counting bytes as they stream. */
function logBodyLimit(): MiddlewareHandler<AppBindings> {
  return async function logBodyLimit(c, next) {
    const maxSize = Number(c.env.LOG_MAX_BYTES) || DEFAULT_LOG_MAX_BYTES;
    const limit = bodyLimit({
      maxSize,
      onError: (c) => c.json({ detail: `request body is larger than the limit of ${maxSize} bytes` }, 413),
    }) as unknown as MiddlewareHandler<AppBindings>;
    return limit(c, next);
  };
}

/** Serves Swagger UI at /docs unless `DOCS_ENABLED` is "false". */
function docs(): MiddlewareHandler<AppBindings> {
  const ui = swaggerUI({ url: "/openapi.json", title: "Sightline API" }) as unknown as MiddlewareHandler<AppBindings>;
  return async function docs(c, next) {
    if (c.env.DOCS_ENABLED === "false") return c.json({ detail: "API docs are disabled on this deployment" }, 404);
    return ui(c, next);
  };
}

/** Builds the API app. */
export function createApp() {
  const app = new OpenAPIHono<AppBindings>({
    defaultHook: (result, c) => {
      if (!result.success) return c.json({ detail: describeIssues(result.error.issues) }, 422);
    },
  });

  app.use("*", methodNotAllowed(() => app.routes));
  app.use("/internal/*", database());
  app.use("/api/*", database());
  // The payment webhook authenticates by signature (no key), but needs the database.
  app.use("/webhook/*", database());
  app.use("/internal/log", logBodyLimit(), logAuth());
  app.use("/internal/keys/check", keyAuth());
  app.use("/internal/sweep", internalAuth());
  app.use("/api/*", projectAuth());
  app.use("/internal/projects", internalAuth());
  app.use("/internal/projects/*", internalAuth());

  app.route("/", logRoutes);
  app.route("/", requestRoutes);
  app.route("/", scoreRoutes);
  app.route("/", billingRoutes);
  app.route("/", internalRoutes);
  app.route("/", keyCheckRoutes);
  app.route("/", sweepRoutes);
  app.route("/", webhookRoutes);

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
      description: "LLM request logging and safety scoring. Every error body is {\"detail\": \"...\"}.",
    },
    servers: [{ url: new URL(c.req.url).origin }],
  }));
  app.get("/docs", docs());

  app.notFound(routeNotFound);
  app.onError(renderError);
  return app;
}
