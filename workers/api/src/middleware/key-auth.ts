/** Authentication of GET /internal/keys/check: an API key only (no internal secret). */
import type { MiddlewareHandler } from "hono";
import { acceptedKey, admitKey } from "./credentials";
import type { ApiKeyScope } from "../../../../src/enums";
import type { AppBindings } from "../env";

/**
 * Opens a route to an API key only: unknown, revoked and expired keys get 401 with the reason,
 * a key without `scope` 403 (`{"detail": "this API key lacks the <scope> scope"}`).
 * Sets `c.var.projectId`, `c.var.authKind`, `c.var.scopes` and `c.var.apiKeyId`. Needs `database()` before it.
 */
export function keyAuth(scope: ApiKeyScope): MiddlewareHandler<AppBindings> {
  return async function keyAuth(c, next) {
    admitKey(c, await acceptedKey(c), scope);
    return next();
  };
}
