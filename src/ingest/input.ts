/**
 * Input PostgreSQL cannot store: the one decision, applied by `middleware/json-input.ts` to
 * every route's JSON body and query string, by the payment webhook to its verified event, and
 * by the ingest statement to what it stores (README, "Errors").
 *
 * - NUL (U+0000) and lone surrogates (U+D800-U+DFFF without their pair) in a JSON body, in any
 *   key or value at any depth: replaced with U+FFFD (the Unicode replacement character) and
 *   stored. PostgreSQL's text and jsonb types cannot hold U+0000 nor encode a lone surrogate
 *   in UTF-8, and refusing would lose a captured call over one stray character.
 *   POST /internal/log says so in `metadata.text_replaced` (how many strings changed).
 * - The same characters in a query parameter (a filter such as `?model=`): 422 naming the
 *   parameter; replacing them would silently change what is looked up.
 * - JSON nested deeper than `MAX_JSON_DEPTH` levels: 422. No real LLM payload comes close,
 *   and bounded depth keeps every walk over a body (redaction, scoring, jsonb) safe.
 */
import { ApiError } from "../http/errors";

/** Deepest accepted nesting of arrays and objects in a JSON body (the body itself is level 1). */
export const MAX_JSON_DEPTH = 128;

/** The replacement character that stands in for a character PostgreSQL cannot store. */
export const REPLACEMENT = "\uFFFD";

/** True when PostgreSQL can store `s` as text: no U+0000 and no lone surrogate. */
export function isStorableText(s: string): boolean {
  return !s.includes("\u0000") && s.isWellFormed();
}

/** `s` with U+0000 and lone surrogates replaced by U+FFFD. */
export function storableText(s: string): string {
  return isStorableText(s) ? s : s.toWellFormed().replaceAll("\u0000", REPLACEMENT);
}

/** Thrown by `storableJson` for nesting deeper than `MAX_JSON_DEPTH`. */
export class TooDeepError extends Error {
  constructor(readonly path: string) {
    super(`nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/**
 * `value` with every string, keys included, made storable (`storableText`), and the number
 * of strings that changed. Returns `value` itself when nothing changed. Throws `TooDeepError`
 * (naming the path where the limit was crossed) for nesting deeper than `MAX_JSON_DEPTH`.
 */
export function storableJson(value: unknown): { value: unknown; replaced: number } {
  let replaced = 0;
  const text = (s: string) => {
    if (isStorableText(s)) return s;
    replaced++;
    return storableText(s);
  };
  const walk = (v: unknown, depth: number, path: string): unknown => {
    if (typeof v === "string") return text(v);
    if (typeof v !== "object" || v === null) return v;
    if (depth >= MAX_JSON_DEPTH) throw new TooDeepError(path);
    if (Array.isArray(v)) {
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item = walk(v[i], depth + 1, depth < 4 ? `${path}.${i}` : path);
        if (item !== v[i]) (out ??= v.slice())[i] = item;
      }
      return out ?? v;
    }
    let changed = false;
    const entries = Object.entries(v).map(([k, item]) => {
      const key = text(k);
      const next = walk(item, depth + 1, depth < 4 ? `${path}.${key}` : path);
      if (key !== k || next !== item) changed = true;
      return [key, next] as const;
    });
    // Object.fromEntries defines own properties, so a "__proto__" key stays a plain key; a
    // replaced key that collides with an existing one keeps the later value, as JSON.parse does.
    return changed ? Object.fromEntries(entries) : v;
  };
  const result = walk(value, 0, "body");
  return { value: result, replaced };
}

/**
 * Parses a JSON request body and makes it storable. Returns `undefined` for malformed JSON
 * (the route's validator answers 400 for it). Throws a 422 `ApiError` for nesting deeper than
 * `MAX_JSON_DEPTH`, including nesting so deep that the parser itself gives up (RangeError).
 */
export function parseStorableJson(text: string): { value: unknown; replaced: number } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    if (err instanceof RangeError) throw tooDeep("body");
    return undefined;
  }
  try {
    return storableJson(parsed);
  } catch (err) {
    if (err instanceof TooDeepError) throw tooDeep(err.path);
    throw err;
  }
}

/** The 422 for a body nested too deeply, naming where. */
export function tooDeep(path: string): ApiError {
  return new ApiError(422, `${path}: JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
}

/** Throws a 422 naming the first query parameter (name or value) PostgreSQL cannot store. */
export function assertStorableQuery(query: Record<string, string[]>): void {
  for (const [name, values] of Object.entries(query)) {
    if (!isStorableText(name)) throw new ApiError(422, `query parameter name: must not contain NUL or unpaired surrogate characters`);
    if (values.some((v) => !isStorableText(v))) throw new ApiError(422, `${name}: must not contain NUL or unpaired surrogate characters`);
  }
}
