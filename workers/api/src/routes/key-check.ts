/**
 * GET /internal/keys/check: is this API key accepted right now? Asked by the capture proxy
 * (workers/proxy/src/key-check.ts) through its `API` service binding, in parallel with the
 * upstream call, so that unknown, revoked and expired keys get 401 before any response byte.
 *
 * Authenticated by the key itself (`access.key()`, workers/api/src/middleware/key-auth.ts): the route tells the caller nothing that any
 * /api route does not already tell the holder of the same key. One indexed query (`lookupKey`).
 */
import { z } from "@hono/zod-openapi";
import { access, commonErrors, createRouter, jsonResponse, routesTagged } from "./openapi";

const route = routesTagged("ingest")("get", "/internal/keys/check", {
  summary: "Check an API key (used by the capture proxy)",
  description: "200 when the key is accepted now; 401 `{detail}` when it is unknown, revoked, or expired after rotation.",
  ...access.key(),
  responses: {
    200: jsonResponse(z.object({ project_id: z.uuid() }).openapi("KeyCheck"), "The key is accepted"),
    ...commonErrors,
  },
});

/** Registers GET /internal/keys/check (auth: `access.key()`). */
export const keyCheckRoutes = createRouter().openapi(route, (c) => c.json({ project_id: c.var.projectId }, 200));
