/**
 * Renders every failure as `{"detail": ...}` (docs/decisions.md D11): ApiError and Hono's
 * HTTPException with their status; an unreachable database as 503; anything else as 500
 * with a generic message (the error itself goes to the log, never into the response).
 */
import type { Context, ErrorHandler, MiddlewareHandler, NotFoundHandler } from "hono";
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

/** The methods the app serves on a path, from its route table (`app.routes`, read once). */
function allowedMethods(routes: () => readonly { method: string; path: string }[]) {
  let table: { method: string; re: RegExp }[] | undefined;
  return (path: string): string[] => {
    table ??= routes()
      .filter((r) => r.method !== "ALL")
      .map((r) => ({ method: r.method, re: patternToRegExp(r.path) }));
    return [...new Set(table.filter((r) => r.re.test(path)).map((r) => r.method))];
  };
}

/**
 * Answers 405 with `Allow` before authentication runs, when the path exists but not under
 * the request's method (HEAD counts as GET).
 */
export function methodNotAllowed(routes: () => readonly { method: string; path: string }[]): MiddlewareHandler<AppBindings> {
  const allowed = allowedMethods(routes);
  return async function methodNotAllowed(c, next) {
    const methods = allowed(c.req.path);
    const method = c.req.method === "HEAD" ? "GET" : c.req.method;
    if (methods.length > 0 && !methods.includes(method))
      return c.json({ detail: `method ${c.req.method} is not allowed on ${c.req.path}` }, 405, { Allow: methods.join(", ") });
    return next();
  };
}

/** `app.notFound` handler: 404 `{detail}` naming the method and path. */
export const routeNotFound: NotFoundHandler<AppBindings> = (c: Context<AppBindings>) =>
  c.json({ detail: `no route for ${c.req.method} ${c.req.path}` }, 404);
