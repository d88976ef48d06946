/**
 * /api/projects/:projectId/keys: the API key lifecycle (docs/interface.md section 3.1) for the
 * dashboard, through the API's /internal routes (typed client). viewer: list; member: create,
 * rotate; admin: revoke, delete. A full key appears only in the create and rotate answers.
 * A malformed key id answers 404, as an unknown one.
 *
 * Scopes (issue 32) are capped by the user's role (`scopesForRole`, src/enums.ts): a member may
 * grant `ingest` and `read`, an admin or owner also `admin`. The create body's `scopes` defaults
 * to all the role may grant; asking for more is 403. A rotation keeps the key's scopes, so a
 * member may not rotate a key holding `admin` (403: its new value would be an admin key).
 */
import { Hono } from "hono";
import { z } from "zod";
import { API_KEY_SCOPES, scopesForRole, scopesWithin } from "../../../src/enums";
import { ApiError } from "../../../src/http/errors";
import type { ApiKey, ApiKeyList, NewApiKey, RotatedApiKey } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { validate, validIds } from "../lib/validate";

/** A key's name: 1 to 100 characters after trimming (the API's own bound); its scopes, a non-empty set (default: all the role may grant). */
const NewKey = z.object({ name: z.string().trim().min(1).max(100), scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(12).optional() });
const keyIds = validIds({ projectId: "project", keyId: "key" });

/** Key routes, mounted at /api/projects/:projectId/keys. */
export const keyRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => {
    const keys = apiClient(c.var.config).internal.projects[":project_id"].keys;
    return c.json((await unwrap(keys.$get({ param: { project_id: c.var.project.id } }))) satisfies ApiKeyList, 200);
  })
  .post("/", projectAccess("member"), validate("json", NewKey), async (c) => {
    const keys = apiClient(c.var.config).internal.projects[":project_id"].keys;
    const body = c.req.valid("json");
    const grantable = scopesForRole(c.var.project.role);
    const scopes = body.scopes ?? [...grantable];
    const beyond = scopes.filter((s) => !grantable.includes(s));
    if (!scopesWithin(scopes, grantable)) throw new ApiError(403, `scopes: the ${c.var.project.role} role may not grant ${beyond.join(", ")}`);
    const json = { name: body.name, created_by: c.var.user.email, scopes };
    return c.json((await unwrap(keys.$post({ param: { project_id: c.var.project.id }, json }))) satisfies NewApiKey, 201);
  })
  .post("/:keyId/rotate", keyIds, projectAccess("member"), async (c) => {
    const key = apiClient(c.var.config).internal.projects[":project_id"].keys[":key_id"];
    const param = { project_id: c.var.project.id, key_id: c.req.valid("param").keyId };
    const json = { created_by: c.var.user.email, grantable_scopes: [...scopesForRole(c.var.project.role)] };
    return c.json((await unwrap(key.rotate.$post({ param, json }))) satisfies RotatedApiKey, 201);
  })
  .post("/:keyId/revoke", keyIds, projectAccess("admin"), async (c) => {
    const key = apiClient(c.var.config).internal.projects[":project_id"].keys[":key_id"];
    const param = { project_id: c.var.project.id, key_id: c.req.valid("param").keyId };
    return c.json((await unwrap(key.revoke.$post({ param }))) satisfies ApiKey, 200);
  })
  .delete("/:keyId", keyIds, projectAccess("admin"), async (c) => {
    const key = apiClient(c.var.config).internal.projects[":project_id"].keys[":key_id"];
    await unwrap(key.$delete({ param: { project_id: c.var.project.id, key_id: c.req.valid("param").keyId } }));
    return c.body(null, 204);
  });
