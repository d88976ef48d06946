/** Authentication of the project routes (/api/*): an API key with the route's scope, or the internal secret with `project_id`. */
import type { MiddlewareHandler } from "hono";
import { acceptedKey, admitKey, internalCaller, setCaller } from "./credentials";
import type { ApiKeyScope } from "../../../../src/enums";
import type { AppBindings } from "../env";
import { ApiError } from "../../../../src/http/errors";

/**
 * Opens a project's data: an API key (its project; a different `project_id` in the query
 * answers 404) holding `scope` (403 `{"detail": "this API key lacks the <scope> scope"}`
 * otherwise), or the internal secret with `project_id` (query) naming the project, which holds
 * every scope. Sets `c.var.projectId`, `c.var.authKind`, `c.var.scopes` and `c.var.apiKeyId`.
 * Needs `database()` before it.
 */
export function projectAuth(scope: ApiKeyScope): MiddlewareHandler<AppBindings> {
  return async function projectAuth(c, next) {
    const internal = await internalCaller(c);
    if (internal) {
      c.set("projectId", internal);
      setCaller(c, "internal");
      return next();
    }
    const key = await acceptedKey(c);
    const requested = c.req.query("project_id");
    if (requested && requested.toLowerCase() !== key.projectId) throw new ApiError(404, "project not found");
    admitKey(c, key, scope);
    return next();
  };
}
