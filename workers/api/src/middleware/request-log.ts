import type { MiddlewareHandler } from "hono";
import { requestId } from "hono/request-id";
import type { AppBindings } from "../env";
import { REQUEST_ID_HEADER, withLogContext } from "../../../../src/logger";

/**
 * The request id of every API request, by hono/request-id: the caller's `X-Request-Id` when it
 * is a plain token of at most 255 characters, otherwise a new UUID. It is on `c.var.requestId`,
 * in the response's `X-Request-Id` header (error responses included) and, as `http_request_id`,
 * on every line logged while the request runs (../logger.ts).
 */
export function requestLog(): MiddlewareHandler<AppBindings> {
  const assignId = requestId({ headerName: REQUEST_ID_HEADER });
  return async function requestLog(c, next) {
    await assignId(c, () => withLogContext({ http_request_id: c.var.requestId }, next));
  };
}
