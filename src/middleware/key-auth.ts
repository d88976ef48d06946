/** Authentication of GET /internal/keys/check: an API key only (no internal secret). */
import type { MiddlewareHandler } from "hono";
import { projectFromKey } from "../auth/credentials";
import type { AppBindings } from "../env";

/**
 * Opens a route to an API key only: unknown, revoked and expired keys get 401 with the reason.
 * Sets `c.var.projectId` and `c.var.authKind`. Needs `database()` before it.
 */
export function keyAuth(): MiddlewareHandler<AppBindings> {
  return async function keyAuth(c, next) {
    c.set("projectId", await projectFromKey(c));
    c.set("authKind", "api_key");
    return next();
  };
}
