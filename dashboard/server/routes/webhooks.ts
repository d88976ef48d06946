/**
 * /api/projects/:projectId/webhooks: alert webhooks (docs/webhooks.md) for the dashboard,
 * forwarded to the API's /api/webhooks routes with the internal secret; the API validates the
 * bodies and its `{detail}` answers pass through. viewer: list endpoints and their deliveries;
 * admin: create (the secret appears only in that answer), send a test event, delete.
 */
import { Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../../../src/errors";
import type { DashboardBindings } from "../env";
import { callApi } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";

const endpointId = z.uuid();
const id = (raw: string | undefined) => {
  const parsed = endpointId.safeParse(raw);
  if (!parsed.success) throw new ApiError(404, "webhook endpoint not found");
  return parsed.data;
};

/** Webhook routes, mounted at /api/projects/:projectId/webhooks. */
export const webhookRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, "/api/webhooks", { projectId: c.var.project.id, query: { page_size: "200" } }), 200),
  )
  .post("/", projectAccess("admin"), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new ApiError(400, "malformed JSON in request body");
    }
    return c.json(await callApi(c.env, "/api/webhooks", { method: "POST", projectId: c.var.project.id, body }), 201);
  })
  .post("/:id/test", projectAccess("admin"), async (c) =>
    c.json(await callApi(c.env, `/api/webhooks/${id(c.req.param("id"))}/test`, { method: "POST", projectId: c.var.project.id }), 200),
  )
  .get("/:id/deliveries", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, `/api/webhooks/${id(c.req.param("id"))}/deliveries`, { projectId: c.var.project.id, query: { page_size: "50" } }), 200),
  )
  .delete("/:id", projectAccess("admin"), async (c) => {
    await callApi(c.env, `/api/webhooks/${id(c.req.param("id"))}`, { method: "DELETE", projectId: c.var.project.id });
    return c.body(null, 204);
  });
