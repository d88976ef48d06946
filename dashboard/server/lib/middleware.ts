/**
 * Middleware factories of the dashboard's server routes: the request's auth (Better Auth over
 * its own tables), the signed-in user, the caller's role on the project in the path (asked of
 * the API, which owns projects and their organisation links), JSON-only writes.
 */
import type { MiddlewareHandler } from "hono";
import { LOWERCASE_UUID_PATTERN } from "../../../src/util";
import { ApiError } from "../../../src/http/errors";
import { createAuth, type Auth } from "../auth/auth";
import { roleAtLeast, type Role } from "../auth/roles";
import type { DashboardBindings } from "../env";
import { userProject } from "./workspace";

/** The request's Better Auth instance, built on first use. */
const auths = new WeakMap<Request, Auth>();
export function authFor(c: { var: Pick<DashboardBindings["Variables"], "db" | "config">; req: { raw: Request } }): Auth {
  const known = auths.get(c.req.raw);
  if (known) return known;
  const auth = createAuth(c.var.config, c.var.db);
  auths.set(c.req.raw, auth);
  return auth;
}

/** 401 unless the request carries a valid session cookie; sets `c.var.user`. */
export function requireSession(): MiddlewareHandler<DashboardBindings> {
  return async function requireSession(c, next) {
    const session = await authFor(c).api.getSession({ headers: c.req.raw.headers });
    if (!session) throw new ApiError(401, "sign in first");
    c.set("user", { id: session.user.id, email: session.user.email, name: session.user.name });
    return next();
  };
}

/**
 * Opens `:projectId` to members of the organisation that owns it with at least `needed`.
 * A project of another organisation answers 404, as an unknown one does (nothing revealed);
 * a member with a weaker role gets 403. The membership is the API's answer
 * (GET /internal/users/{user_id}/projects/{project_id}). Sets `c.var.project`.
 */
export function projectAccess(needed: Role): MiddlewareHandler<DashboardBindings> {
  return async function projectAccess(c, next) {
    const projectId = c.req.param("projectId") ?? "";
    if (!LOWERCASE_UUID_PATTERN.test(projectId)) throw new ApiError(404, "project not found");
    const row = await userProject(c.var.config, c.var.user.id, projectId);
    if (!roleAtLeast(row.role, needed)) throw new ApiError(403, `this needs the ${needed} role or higher; yours is ${row.role}`);
    c.set("project", { id: projectId, organizationId: row.organization_id, role: row.role });
    return next();
  };
}

/**
 * Writes must be JSON: a cross-site form or `text/plain` POST (a "simple" request that skips
 * CORS preflight) is refused with 415 before any handler runs. Together with hono/csrf's
 * Origin check in server/app.ts this closes CSRF on the dashboard's own routes.
 */
export function jsonWrites(): MiddlewareHandler<DashboardBindings> {
  return async function jsonWrites(c, next) {
    if (c.req.method !== "GET" && c.req.method !== "HEAD" && c.req.method !== "DELETE") {
      const type = c.req.header("Content-Type") ?? "";
      if (!/^application\/json\b/i.test(type)) throw new ApiError(415, "send the body as application/json");
    }
    return next();
  };
}
