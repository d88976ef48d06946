/**
 * /api/projects/:projectId/keys: the API key lifecycle (interface spec, section 3) for the
 * dashboard, through the API's /internal routes. viewer: list; member: create, rotate;
 * admin: revoke, delete. A full key appears only in the create and rotate answers.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { DashboardBindings } from "../env";
import { callApi } from "../lib/api-client";
import { jsonBody } from "../lib/body";
import { projectAccess, requireSession } from "../lib/middleware";

const NewKey = z.object({ name: z.string().trim().min(1).max(100) });
const keysPath = (projectId: string) => `/internal/projects/${projectId}/keys`;
const keyId = z.uuid();

/** Key routes, mounted at /api/projects/:projectId/keys. */
export const keyRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => c.json(await callApi(c.env, keysPath(c.var.project.id)), 200))
  .post("/", projectAccess("member"), async (c) => {
    const { name } = await jsonBody(c, NewKey);
    const key = await callApi(c.env, keysPath(c.var.project.id), { method: "POST", body: { name, created_by: c.var.user.email } });
    return c.json(key, 201);
  })
  .post("/:keyId/rotate", projectAccess("member"), async (c) => {
    const id = keyId.parse(c.req.param("keyId"));
    const rotated = await callApi(c.env, `${keysPath(c.var.project.id)}/${id}/rotate`, { method: "POST", body: { created_by: c.var.user.email } });
    return c.json(rotated, 201);
  })
  .post("/:keyId/revoke", projectAccess("admin"), async (c) => {
    const id = keyId.parse(c.req.param("keyId"));
    return c.json(await callApi(c.env, `${keysPath(c.var.project.id)}/${id}/revoke`, { method: "POST" }), 200);
  })
  .delete("/:keyId", projectAccess("admin"), async (c) => {
    const id = keyId.parse(c.req.param("keyId"));
    await callApi(c.env, `${keysPath(c.var.project.id)}/${id}`, { method: "DELETE" });
    return c.body(null, 204);
  });
