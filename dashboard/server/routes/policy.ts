/**
 * /api/projects/:projectId/policy: the project policy (docs/policy.md) for the dashboard,
 * forwarded to the API's GET/PUT /api/policy with the internal secret; the API validates the
 * body and its `{detail}` answers (422 naming the field) pass through. viewer: read; admin: replace.
 */
import { Hono } from "hono";
import { ApiError } from "../../../src/errors";
import type { DashboardBindings } from "../env";
import { callApi } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";

/** Policy routes, mounted at /api/projects/:projectId/policy. */
export const policyRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => c.json(await callApi(c.env, "/api/policy", { projectId: c.var.project.id }), 200))
  .put("/", projectAccess("admin"), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ApiError(400, "malformed JSON in request body");
    }
    return c.json(await callApi(c.env, "/api/policy", { method: "PUT", projectId: c.var.project.id, body }), 200);
  });
