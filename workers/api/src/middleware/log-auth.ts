/** Authentication of POST /internal/log, the hot path: the key is resolved by the ingest statement. */
import type { MiddlewareHandler } from "hono";
import { internalCaller, setCaller, wellFormedKey } from "./credentials";
import { hashKey } from "../../../../src/auth/keys";
import type { AppBindings } from "../env";

/**
 * The internal secret with `project_id` is checked here; an API key only for presence and
 * format, and its SHA-256 goes on `c.var.credential` so that the ingest statement resolves it
 * in the same round trip (`src/db/ingest.ts`), which answers 401 itself when the key is
 * unknown, revoked or expired, and 403 when it lacks the `ingest` scope. A well-formed but
 * unknown key with an invalid body therefore gets 422, not 401.
 */
export function logAuth(): MiddlewareHandler<AppBindings> {
  return async function logAuth(c, next) {
    const internal = await internalCaller(c);
    if (internal) {
      c.set("credential", { projectId: internal });
      setCaller(c, "internal");
      return next();
    }
    c.set("credential", { keyHash: await hashKey(wellFormedKey(c)) });
    c.set("authKind", "api_key");
    return next();
  };
}
