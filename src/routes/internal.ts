/**
 * /internal administration routes for the dashboard and the operator CLI, behind
 * `X-Internal-Secret`: projects (create, list) and the API key lifecycle (create, list,
 * revoke, rotate, delete) of docs/decisions.md D8 and docs/interface.md section 3.1.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { createKey, deleteKey, listKeys, revokeKey, rotateKey, type KeyRecord } from "../db/keys";
import { createProject, listProjects } from "../db/projects";
import { apiKeys, projects } from "../db/schema";
import { createSelectSchema } from "drizzle-zod";
import { instant } from "./schemas";
import { iso, isoOrNull } from "../util";
import { notFound } from "../errors";
import { access, commonErrors, createRouter, jsonResponse as json, notFoundResponse } from "./openapi";

// Derived from the tables (drizzle-zod): instants as ISO-8601 text; a key never shows its hash.
const ProjectSchema = createSelectSchema(projects, { created_at: instant }).openapi("Project");
const KeySchema = createSelectSchema(apiKeys, {
  key_hint: (s) => s.openapi({ example: "slk_1a2b…9f0e" }),
  created_at: instant,
  expires_at: instant.nullable().openapi({ description: "Set by rotation: the key stops working then" }),
  revoked_at: instant.nullable(),
  created_by: (s) => s.openapi({ description: "Who created the key in the dashboard (email), or null" }),
  last_used_at: instant.nullable().openapi({ description: "Last accepted use, recorded at most once a minute" }),
})
  .omit({ key_hash: true, replaced_by: true })
  .openapi("ApiKey");
const NewKeySchema = KeySchema.extend({
  key: z.string().openapi({ description: "The full key. Shown once: store it now.", example: "slk_" + "0".repeat(48) }),
}).openapi("NewApiKey");

const keyJson = <K extends KeyRecord>(k: K) => ({
  ...k,
  created_at: iso(k.created_at),
  expires_at: isoOrNull(k.expires_at),
  revoked_at: isoOrNull(k.revoked_at),
  last_used_at: isoOrNull(k.last_used_at),
});
const CreatedBy = z.string().trim().min(1).max(320).optional().openapi({ description: "Who asks (the dashboard sends the user's email)" });
const projectJson = (p: { id: string; name: string; created_at: Date }) => ({ ...p, created_at: iso(p.created_at) });
const ProjectParam = z.object({ project_id: z.uuid() });
const KeyParam = ProjectParam.extend({ key_id: z.uuid() });
const admin = { tags: ["internal"], ...access.internal() };

const routes = {
  createProject: createRoute({
    ...admin,
    method: "post",
    path: "/internal/projects",
    summary: "Create a project (with a free subscription)",
    request: { body: { required: true, content: { "application/json": { schema: z.object({ name: z.string().trim().min(1).max(200) }) } } } },
    responses: { 201: json(ProjectSchema, "The project"), ...commonErrors },
  }),
  listProjects: createRoute({
    ...admin,
    method: "get",
    path: "/internal/projects",
    summary: "List projects, newest first",
    responses: { 200: json(z.object({ items: z.array(ProjectSchema) }), "All projects"), ...commonErrors },
  }),
  createKey: createRoute({
    ...admin,
    method: "post",
    path: "/internal/projects/{project_id}/keys",
    summary: "Create an API key; its full value is returned once",
    request: {
      params: ProjectParam,
      body: {
        required: false,
        content: { "application/json": { schema: z.object({ name: z.string().trim().min(1).max(100).default("default"), created_by: CreatedBy }) } },
      },
    },
    responses: { 201: json(NewKeySchema, "The new key"), ...commonErrors, ...notFoundResponse },
  }),
  listKeys: createRoute({
    ...admin,
    method: "get",
    path: "/internal/projects/{project_id}/keys",
    summary: "List a project's keys (hints only)",
    request: { params: ProjectParam },
    responses: { 200: json(z.object({ items: z.array(KeySchema) }), "The keys"), ...commonErrors },
  }),
  revokeKey: createRoute({
    ...admin,
    method: "post",
    path: "/internal/projects/{project_id}/keys/{key_id}/revoke",
    summary: "Revoke a key: refused with 401 at once",
    request: { params: KeyParam },
    responses: { 200: json(KeySchema, "The revoked key"), ...commonErrors, ...notFoundResponse },
  }),
  rotateKey: createRoute({
    ...admin,
    method: "post",
    path: "/internal/projects/{project_id}/keys/{key_id}/rotate",
    summary: "Rotate a key: a new key now, the old one refused 60 seconds later",
    request: { params: KeyParam, body: { required: false, content: { "application/json": { schema: z.object({ created_by: CreatedBy }) } } } },
    responses: {
      201: json(z.object({ key: NewKeySchema, previous: KeySchema }).openapi("RotatedApiKey"), "The new key and the expiring one"),
      ...commonErrors,
      ...notFoundResponse,
    },
  }),
  deleteKey: createRoute({
    ...admin,
    method: "delete",
    path: "/internal/projects/{project_id}/keys/{key_id}",
    summary: "Delete a key (last step of zero-downtime rotation)",
    request: { params: KeyParam },
    responses: { 204: { description: "Deleted" }, ...commonErrors, ...notFoundResponse },
  }),
};

/** Registers the administration routes. */
export const internalRoutes = createRouter()
  .openapi(routes.createProject, async (c) => {
    const p = await createProject(c.var.db, c.req.valid("json").name);
    return c.json(projectJson(p), 201);
  })
  .openapi(routes.listProjects, async (c) => {
    return c.json({ items: (await listProjects(c.var.db)).map(projectJson) }, 200);
  })
  .openapi(routes.createKey, async (c) => {
    const { project_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const created = await createKey(c.var.db, project_id, body?.name ?? "default", body?.created_by ?? null);
    if (!created) throw notFound("project");
    return c.json(keyJson(created), 201);
  })
  .openapi(routes.listKeys, async (c) => {
    const rows = await listKeys(c.var.db, c.req.valid("param").project_id);
    return c.json({ items: rows.map(keyJson) }, 200);
  })
  .openapi(routes.revokeKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    const row = await revokeKey(c.var.db, project_id, key_id);
    if (!row) throw notFound("key");
    return c.json(keyJson(row), 200);
  })
  .openapi(routes.rotateKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    const rotated = await rotateKey(c.var.db, project_id, key_id, c.req.valid("json")?.created_by ?? null);
    if (!rotated) throw notFound("active key");
    return c.json({ key: keyJson(rotated.replacement), previous: keyJson(rotated.old) }, 201);
  })
  .openapi(routes.deleteKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    if (!(await deleteKey(c.var.db, project_id, key_id))) throw notFound("key");
    return c.body(null, 204);
  });
