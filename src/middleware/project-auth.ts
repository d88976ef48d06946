/** Authentication of the project routes (/api/*): an API key, or the internal secret with `project_id`. */
import type { MiddlewareHandler } from "hono";
import { internalCaller, projectFromKey } from "../auth/credentials";
import type { AppBindings } from "../env";
import { ApiError } from "../errors";

/**
 * Opens a project's data: an API key (its project; a different `project_id` in the query
 * answers 404) or the internal secret with `project_id` (query) naming the project.
 * Sets `c.var.projectId` and `c.var.authKind`. Needs `database()` before it.
 */
export function projectAuth(): MiddlewareHandler<AppBindings> {
  return async function projectAuth(c, next) {
    const internal = await internalCaller(c);
    if (internal) {
      c.set("projectId", internal);
      c.set("authKind", "internal");
      return next();
    }
    const projectId = await projectFromKey(c);
    const requested = c.req.query("project_id");
    if (requested && requested.toLowerCase() !== projectId) throw new ApiError(404, "project not found");
    c.set("projectId", projectId);
    c.set("authKind", "api_key");
    return next();
  };
}
