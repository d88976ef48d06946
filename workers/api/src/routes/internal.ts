/**
 * /internal administration routes for the dashboard and the operator CLI, behind
 * `X-Internal-Secret`: projects (create, list) and the API key lifecycle (create, list,
 * revoke, rotate, delete) of docs/decisions.md D8 and docs/interface.md section 3.1.
 */
import { z } from "@hono/zod-openapi";
import { createKey, deleteKey, listKeys, revokeKey, rotateKey, type KeyRecord } from "../../../../src/db/keys";
import { API_KEY_SCOPES } from "../../../../src/enums";
import { createProject, deleteProject, listProjects, renameProject } from "../../../../src/db/projects";
import { KeySchema, NewKeySchema, ProjectSchema, RotatedKeySchema } from "./schemas";
import { iso, isoOrNull } from "../../../../src/util";
import { ApiError, notFound, orNotFound } from "../../../../src/http/errors";
import { FOREIGN_KEY_VIOLATION, sqlStateOf } from "../../../../src/db/driver/unavailable";
import { createRouter, errorResponse, internalRoutesTagged, jsonResponse as json, notFoundResponse } from "./openapi";

const keyJson = <K extends KeyRecord>(k: K) => ({
  ...k,
  created_at: iso(k.created_at),
  expires_at: isoOrNull(k.expires_at),
  revoked_at: isoOrNull(k.revoked_at),
  last_used_at: isoOrNull(k.last_used_at),
});
const CreatedBy = z.string().trim().min(1).max(320).optional().openapi({ description: "Who asks (the dashboard sends the user's email)" });
/** A non-empty set of scopes (repeats are dropped). */
const ScopeSet = z
  .array(z.enum(API_KEY_SCOPES))
  .min(1)
  .max(API_KEY_SCOPES.length * 4);
const NewKeyBody = z.object({
  name: z.string().trim().min(1).max(100).default("default"),
  created_by: CreatedBy,
  scopes: ScopeSet.optional().openapi({
    description: "What the key may do (default: all of ingest, read, admin; the dashboard caps it by the creator's role)",
  }),
});
const RotateBody = z.object({
  created_by: CreatedBy,
  grantable_scopes: z.array(z.enum(API_KEY_SCOPES)).optional().openapi({
    description:
      "The scopes the asker may hand out (the dashboard sends what the user's role may grant). A key holding any other scope is not rotated: 403. Default: all.",
  }),
});
const projectJson = (p: { id: string; name: string; created_at: Date }) => ({ ...p, created_at: iso(p.created_at) });
const ProjectParam = z.object({ project_id: z.uuid() });
/** A project's name: 1 to 200 characters after trimming. */
export const ProjectName = z.string().trim().min(1).max(200);
const NewProjectBody = z.object({
  name: ProjectName,
  organization_id: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .openapi({ description: "Dashboard organisation to attach the project to, in the same transaction (404 when unknown)" }),
});
const KeyParam = ProjectParam.extend({ key_id: z.uuid() });
const route = internalRoutesTagged("internal");

const routes = {
  createProject: route("post", "/internal/projects", {
    summary: "Create a project (with a free subscription; attached to a dashboard organisation when one is named)",
    request: { body: { required: true, content: { "application/json": { schema: NewProjectBody } } } },
    responses: { 201: json(ProjectSchema, "The project"), ...notFoundResponse },
  }),
  renameProject: route("patch", "/internal/projects/{project_id}", {
    summary: "Rename a project",
    request: { params: ProjectParam, body: { required: true, content: { "application/json": { schema: z.object({ name: ProjectName }) } } } },
    responses: { 200: json(ProjectSchema, "The renamed project"), ...notFoundResponse },
  }),
  deleteProject: route("delete", "/internal/projects/{project_id}", {
    summary: "Delete a project with its keys, requests, scores and subscription",
    description: "Refused (409) while a paid subscription still bills: cancel it in the billing portal first.",
    request: { params: ProjectParam },
    responses: { 204: { description: "Deleted" }, ...notFoundResponse, 409: errorResponse("A paid subscription still bills") },
  }),
  listProjects: route("get", "/internal/projects", {
    summary: "List projects, newest first",
    responses: { 200: json(z.object({ items: z.array(ProjectSchema) }), "All projects") },
  }),
  createKey: route("post", "/internal/projects/{project_id}/keys", {
    summary: "Create an API key; its full value is returned once",
    request: {
      params: ProjectParam,
      body: {
        required: false,
        content: { "application/json": { schema: NewKeyBody } },
      },
    },
    responses: { 201: json(NewKeySchema, "The new key"), ...notFoundResponse },
  }),
  listKeys: route("get", "/internal/projects/{project_id}/keys", {
    summary: "List a project's keys (hints only)",
    request: { params: ProjectParam },
    responses: { 200: json(z.object({ items: z.array(KeySchema) }), "The keys") },
  }),
  revokeKey: route("post", "/internal/projects/{project_id}/keys/{key_id}/revoke", {
    summary: "Revoke a key: refused with 401 at once",
    request: { params: KeyParam },
    responses: { 200: json(KeySchema, "The revoked key"), ...notFoundResponse },
  }),
  rotateKey: route("post", "/internal/projects/{project_id}/keys/{key_id}/rotate", {
    summary: "Rotate a key: a new key with the same name and scopes now, the old one refused 60 seconds later",
    request: { params: KeyParam, body: { required: false, content: { "application/json": { schema: RotateBody } } } },
    responses: {
      201: json(RotatedKeySchema, "The new key and the expiring one"),
      403: errorResponse("The key holds a scope outside `grantable_scopes`"),
      ...notFoundResponse,
    },
  }),
  deleteKey: route("delete", "/internal/projects/{project_id}/keys/{key_id}", {
    summary: "Delete a key (last step of zero-downtime rotation)",
    request: { params: KeyParam },
    responses: { 204: { description: "Deleted" }, ...notFoundResponse },
  }),
};

/** Registers the administration routes. */
export const internalRoutes = createRouter()
  .openapi(routes.createProject, async (c) => {
    const { name, organization_id } = c.req.valid("json");
    try {
      return c.json(projectJson(await createProject(c.var.db, name, new Date(), organization_id)), 201);
    } catch (err) {
      // The organisation link's foreign key refused an unknown organisation: nothing was written.
      if (organization_id !== undefined && sqlStateOf(err) === FOREIGN_KEY_VIOLATION) throw notFound("organisation");
      throw err;
    }
  })
  .openapi(routes.renameProject, async (c) => {
    const row = orNotFound(await renameProject(c.var.db, c.req.valid("param").project_id, c.req.valid("json").name), "project");
    return c.json(projectJson(row), 200);
  })
  .openapi(routes.deleteProject, async (c) => {
    const outcome = await deleteProject(c.var.db, c.req.valid("param").project_id);
    if (outcome === "missing") throw notFound("project");
    if (outcome === "subscribed") throw new ApiError(409, "the project has a paid subscription: cancel it in the billing portal first");
    return c.body(null, 204);
  })
  .openapi(routes.listProjects, async (c) => {
    return c.json({ items: (await listProjects(c.var.db)).map(projectJson) }, 200);
  })
  .openapi(routes.createKey, async (c) => {
    const { project_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const created = await createKey(c.var.db, project_id, body?.name ?? "default", { createdBy: body?.created_by, scopes: body?.scopes });
    return c.json(keyJson(orNotFound(created, "project")), 201);
  })
  .openapi(routes.listKeys, async (c) => {
    const rows = await listKeys(c.var.db, c.req.valid("param").project_id);
    return c.json({ items: rows.map(keyJson) }, 200);
  })
  .openapi(routes.revokeKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    const row = orNotFound(await revokeKey(c.var.db, project_id, key_id), "key");
    return c.json(keyJson(row), 200);
  })
  .openapi(routes.rotateKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    const body = c.req.valid("json");
    const rotated = await rotateKey(c.var.db, project_id, key_id, { createdBy: body?.created_by, mayGrant: body?.grantable_scopes });
    if (!rotated.ok && rotated.reason === "missing") throw notFound("active key");
    if (!rotated.ok) {
      const beyond = rotated.scopes.filter((s) => !body?.grantable_scopes?.includes(s));
      throw new ApiError(403, `this key has the ${beyond.join(" and ")} scope, which you may not grant: an admin must rotate it`);
    }
    return c.json({ key: keyJson(rotated.replacement), previous: keyJson(rotated.old) }, 201);
  })
  .openapi(routes.deleteKey, async (c) => {
    const { project_id, key_id } = c.req.valid("param");
    if (!(await deleteKey(c.var.db, project_id, key_id))) throw notFound("key");
    return c.body(null, 204);
  });
