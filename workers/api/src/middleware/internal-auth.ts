/** Authentication of the administration routes (/internal/projects...): the internal secret only. */
import type { MiddlewareHandler } from "hono";
import { checkInternalSecret, INTERNAL_SECRET_HEADER, setCaller } from "./credentials";
import type { AppBindings } from "../env";
import { unauthorized } from "../../../../src/http/errors";

/** Opens a route to the internal secret only; 401 without it or with a wrong one. */
export function internalAuth(): MiddlewareHandler<AppBindings> {
  return async function internalAuth(c, next) {
    const secret = c.req.header(INTERNAL_SECRET_HEADER);
    if (secret === undefined) throw unauthorized(`missing ${INTERNAL_SECRET_HEADER} header`);
    await checkInternalSecret(c, secret);
    setCaller(c, "internal");
    return next();
  };
}
