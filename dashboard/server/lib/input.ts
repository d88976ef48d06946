/**
 * Input the dashboard server refuses before any route or Better Auth sees it (issue 26.3):
 *
 * - a query parameter or JSON string holding NUL (U+0000) or a lone surrogate: 422 naming it.
 *   PostgreSQL's text cannot store them, and Better Auth answered 500 to such an id. Unlike the
 *   API's ingest (src/ingest/input.ts), nothing is replaced: these are names, ids and addresses a person
 *   typed, and silently changing one would change what is looked up or stored;
 * - JSON nested deeper than `MAX_JSON_DEPTH` (src/ingest/input.ts): 422;
 * - a string field longer than its limit (`FIELD_LIMITS`, any depth): 422 naming the field.
 *
 * The body is read once; routes read the checked value through `c.req.json()`, and Better Auth
 * gets a request rebuilt from the same text (`authRequest`).
 */
import type { Context, MiddlewareHandler } from "hono";
import { ApiError } from "../../../src/http/errors";
import { assertStorableQuery, isStorableText, MAX_JSON_DEPTH, tooDeep } from "../../../src/ingest/input";
import type { DashboardBindings } from "../env";

/**
 * Longest accepted string per JSON field name, in UTF-16 units. Emails: 254, the longest
 * address SMTP can carry (RFC 5321 section 4.5.3.1.3 path limit less the brackets). Passwords:
 * 128, Better Auth's default maximum. Names: 200, as the API's project names.
 */
export const FIELD_LIMITS: Record<string, number> = { email: 254, password: 128, newPassword: 128, currentPassword: 128, name: 200, slug: 100 };
/** Limit of every other string field (ids, tokens, URLs, roles): the longest URL the API accepts. */
export const DEFAULT_FIELD_LIMIT = 2048;

/**
 * Throws 422 for the first string of `value` that is unstorable or too long, naming its path
 * as the validators do (`name`, `a.b.0`; `body` for the body itself).
 */
function checkStrings(value: unknown, path: string, key: string, depth: number): void {
  if (typeof value === "string") {
    path ||= "body";
    if (!isStorableText(value)) throw new ApiError(422, `${path}: must not contain NUL or unpaired surrogate characters`);
    const limit = FIELD_LIMITS[key] ?? DEFAULT_FIELD_LIMIT;
    if (value.length > limit) throw new ApiError(422, `${path}: at most ${limit} characters`);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  if (depth >= MAX_JSON_DEPTH) throw tooDeep(path || "body");
  for (const [k, v] of Object.entries(value)) {
    if (!isStorableText(k)) throw new ApiError(422, `${path || "body"}: a field name must not contain NUL or unpaired surrogate characters`);
    checkStrings(v, path ? `${path}.${k}` : k, Array.isArray(value) ? key : k, depth + 1);
  }
}

/** Text of the request body once the middleware read it (for `authRequest`). */
const bodies = new WeakMap<Request, string>();

/** Middleware factory: see the module doc. Malformed JSON is left to the route (400). */
export function checkedInput(): MiddlewareHandler<DashboardBindings> {
  return async function checkedInput(c, next) {
    assertStorableQuery(c.req.queries());
    if (c.req.raw.body !== null && /^application\/([\w.-]+\+)?json\b/i.test(c.req.header("Content-Type") ?? "")) {
      const text = await c.req.text();
      bodies.set(c.req.raw, text);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (err) {
        if (err instanceof RangeError) throw tooDeep("body");
        return next();
      }
      checkStrings(parsed, "", "", 0);
      c.req.json = <T>() => Promise.resolve(parsed as T);
    }
    return next();
  };
}

/** The request for Better Auth: the original, or one rebuilt with the body `checkedInput` read. */
export function authRequest(c: Context<DashboardBindings>): Request {
  const text = bodies.get(c.req.raw);
  if (text === undefined) return c.req.raw;
  return new Request(c.req.raw.url, { method: c.req.raw.method, headers: c.req.raw.headers, body: text });
}
