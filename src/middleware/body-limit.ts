/**
 * The request body limit of every route: 413 `{detail}` above `LOG_MAX_BYTES` (2 MiB by
 * default), counted as the body streams, so a body without Content-Length is cut off too.
 */
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppBindings } from "../env";

/** Default largest request body: 2 MiB (the `LOG_MAX_BYTES` variable overrides). */
export const DEFAULT_BODY_MAX_BYTES = 2 * 1024 * 1024;

/** Middleware factory: refuses bodies larger than `LOG_MAX_BYTES` with 413. */
export function requestBodyLimit(): MiddlewareHandler<AppBindings> {
  return async function requestBodyLimit(c, next) {
    const maxSize = Number(c.env.LOG_MAX_BYTES) || DEFAULT_BODY_MAX_BYTES;
    const limit = bodyLimit({
      maxSize,
      onError: (c) => c.json({ detail: `request body is larger than the limit of ${maxSize} bytes` }, 413),
    }) as unknown as MiddlewareHandler<AppBindings>;
    return limit(c, next);
  };
}
