/**
 * Renders every failure as `{"detail": ...}` (DESIGN.md, "Errors"): ApiError and Hono's
 * HTTPException with their status; an unreachable database as 503; anything else as 500
 * with a generic message (the error itself goes to the log, never into the response).
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isDatabaseUnavailable } from "./db/client";
import type { AppBindings } from "./env";
import { ApiError } from "./errors";

/** `app.onError` handler. */
export const renderError: ErrorHandler<AppBindings> = (err, c) => {
  if (err instanceof ApiError) return c.json({ detail: err.detail }, err.status, err.headers);
  if (err instanceof HTTPException) {
    const detail = err.status === 400 && /json/i.test(err.message) ? "malformed JSON in request body" : err.message || "request refused";
    return c.json({ detail }, err.status as ContentfulStatusCode);
  }
  if (isDatabaseUnavailable(err)) {
    console.error(JSON.stringify({ msg: "database unavailable", path: c.req.path, error: String(err) }));
    return c.json({ detail: "the database is unavailable, try again later" }, 503, { "Retry-After": "5" });
  }
  console.error(JSON.stringify({ msg: "unhandled error", path: c.req.path, error: String(err), stack: (err as Error).stack }));
  return c.json({ detail: "internal server error" }, 500);
};

/** Compiles a Hono path pattern (`/api/requests/:id`) into an anchored RegExp. */
function patternToRegExp(path: string): RegExp {
  const body = path
    .split("/")
    .map((seg) => (seg.startsWith(":") ? "[^/]+" : seg === "*" ? ".*" : seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .join("/");
  return new RegExp(`^${body}/?$`);
}

/**
 * `app.notFound` handler: 405 with `Allow` when the path exists under other methods,
 * else 404. `routes` is the app's route table (`app.routes`), read once on first use.
 */
export function notFoundOrMethodNotAllowed(routes: () => readonly { method: string; path: string }[]): NotFoundHandler<AppBindings> {
  let table: { method: string; re: RegExp }[] | undefined;
  return (c: Context<AppBindings>) => {
    table ??= routes()
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, re: patternToRegExp(r.path) }));
    const allowed = [...new Set(table.filter((r) => r.re.test(c.req.path)).map((r) => r.method))];
    if (allowed.length > 0)
      return c.json({ detail: `method ${c.req.method} is not allowed on ${c.req.path}` }, 405, { Allow: allowed.join(", ") });
    return c.json({ detail: `no route for ${c.req.method} ${c.req.path}` }, 404);
  };
}
