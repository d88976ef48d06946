/**
 * 405 with `Allow` for a path the app serves under other methods, answered before any route's
 * authentication runs. The methods of a path come from the app's route table.
 */
import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../env";

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
