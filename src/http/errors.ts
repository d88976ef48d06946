import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";

/**
 * The one error type of the API. Rendered once, in `app.onError`, as `{"detail": message}`
 * with `status` (docs/decisions.md D11). Extra headers (e.g. `Retry-After`) go in `headers`.
 */
export class ApiError extends HTTPException {
  constructor(
    status: ContentfulStatusCode,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(status, { message: detail });
  }
}

/** 401: missing, unknown, revoked or expired credentials. */
export const unauthorized = (detail: string) => new ApiError(401, detail, { "WWW-Authenticate": "Bearer" });

/** 404: unknown record, or a record of another project (never reveal that it exists). */
export const notFound = (what: string) => new ApiError(404, `${what} not found`);

/** `value` when the record was found; null or undefined throws `notFound(what)`. */
export function orNotFound<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw notFound(what);
  return value;
}

/** 503: a dependency (database, queue) is unreachable. */
export const unavailable = (what: string) => new ApiError(503, `${what} is unavailable, try again later`);

/** `Retry-After` of a 503 for an unreachable database, in seconds: a restart or failover of a
 * managed PostgreSQL takes seconds, and clients back off further on repeats. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
