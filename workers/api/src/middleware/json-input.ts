/**
 * Applies the input decision of `../input.ts` to a route: the query string is refused (422)
 * when a parameter holds NUL or a lone surrogate; a JSON body is parsed once, refused (422)
 * when nested deeper than `MAX_JSON_DEPTH`, and handed to the route's validator with NUL and
 * lone surrogates replaced by U+FFFD. `c.var.textReplaced` counts the strings that changed.
 * Malformed JSON is left to the validator (400). An empty (or whitespace-only) body with a JSON
 * media type is read as `{}`, as a body sent without `Content-Type` is by an optional body's
 * validator: an optional body takes its defaults (so an unknown key's rotation is 404, issue
 * 32.9), a required one answers 422 naming its fields; never 400 for sending nothing.
 * Runs after authentication and the body limit.
 */
import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../env";
import { assertStorableQuery, parseStorableJson } from "../../../../src/ingest/input";

/** Media types the validators read as JSON (`application/json`, `application/*+json`). */
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** Middleware factory: see the module doc. */
export function jsonInput(): MiddlewareHandler<AppBindings> {
  return async function jsonInput(c, next) {
    assertStorableQuery(c.req.queries());
    c.set("textReplaced", 0);
    const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
    if (c.req.raw.body !== null && JSON_MEDIA_TYPE.test(mediaType)) {
      const text = await c.req.text();
      const parsed = text.trim() === "" ? { value: {}, replaced: 0 } : parseStorableJson(text);
      if (parsed) {
        c.set("textReplaced", parsed.replaced);
        // The validators read the body through c.req.json(): hand them the storable value.
        c.req.json = <T>() => Promise.resolve(parsed.value as T);
      }
    }
    return next();
  };
}
