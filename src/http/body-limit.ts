/**
 * The request body limit of every route: 413 `{detail}` above `LOG_MAX_BYTES` (2 MiB by
 * default), counted as the body streams, so a body without Content-Length is cut off too.
 */
import type { Context, Env, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";

/** Default largest request body: 2 MiB (the `LOG_MAX_BYTES` variable overrides). */
export const DEFAULT_BODY_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Middleware factory: refuses bodies larger than `maxBytes(c)` bytes with 413. The API passes
 * its configured `LOG_MAX_BYTES` (`c.var.config.logMaxBytes`); the dashboard's server passes
 * nothing: the default applies.
 */
export function requestBodyLimit<E extends Env>(maxBytes: (c: Context<E>) => number = () => DEFAULT_BODY_MAX_BYTES): MiddlewareHandler<E> {
  // One hono bodyLimit per limit: the limit is fixed for an isolate's config, so it is built once.
  const limits = new Map<number, MiddlewareHandler<E>>();
  const limitOf = (maxSize: number): MiddlewareHandler<E> => {
    let limit = limits.get(maxSize);
    if (!limit) {
      limit = bodyLimit({
        maxSize,
        onError: (c) => c.json({ detail: `request body is larger than the limit of ${maxSize} bytes` }, 413),
      }) as unknown as MiddlewareHandler<E>;
      limits.set(maxSize, limit);
    }
    return limit;
  };
  return async function requestBodyLimit(c, next) {
    return limitOf(maxBytes(c))(c, next);
  };
}
