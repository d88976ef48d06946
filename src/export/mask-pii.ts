/**
 * Masks personal data in exported text: every span the PII scorer's detectors find
 * (`findPii`, src/scoring/pii-detection.ts) is replaced by its kind in brackets, e.g.
 * `[EMAIL]`, `[CREDIT_CARD]`, so exports and masked views never carry the values themselves.
 */
import { findPii, type PiiAllowList } from "../scoring/pii-detection";

/**
 * `text` with each detected PII span replaced by `[KIND]` (detector id upper-cased); values on
 * the `allow` list (a project's policy, docs/policy.md) are left as they are.
 */
export function maskPiiText(text: string, allow?: PiiAllowList): string {
  const hits = findPii(text, allow);
  if (hits.length === 0) return text;
  // Spans never overlap (findPii skips claimed spans); replace from the end so offsets hold.
  const spans = [...hits].sort((a, b) => b.start - a.start);
  let out = text;
  for (const h of spans) out = `${out.slice(0, h.start)}[${h.id.toUpperCase()}]${out.slice(h.end)}`;
  return out;
}

/**
 * A copy of a JSON value with every string masked by `maskPiiText` (object keys are kept:
 * they are the API's shape, not user data). Non-string leaves are returned as they are; the
 * argument is not changed (a structured clone is masked in place).
 */
export function maskPiiJson(value: unknown, allow?: PiiAllowList): unknown {
  const mask = allow ? (s: string) => maskPiiText(s, allow) : maskPiiText;
  return mapStringsInPlace(typeof value === "object" && value !== null ? structuredClone(value) : value, mask);
}

/** Strings up to this many UTF-16 units are remembered by `memoizedMasker` (roles, models, system prompts). */
const MEMO_MAX_LENGTH = 512;
/** Distinct strings one masker remembers; past it, it starts a fresh memo (memory stays bounded). */
const MEMO_MAX_ENTRIES = 10_000;

/**
 * Replaces, in place, every string value of a JSON value by `fn(string)` (keys kept) and returns
 * it; a string value itself is returned as `fn(value)`. Only strings that change are written.
 */
function mapStringsInPlace(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === "string") return fn(value);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (typeof v === "string") {
        const m = fn(v);
        if (m !== v) value[i] = m;
      } else if (v !== null && typeof v === "object") mapStringsInPlace(v, fn);
    }
    return value;
  }
  const obj = value as Record<string, unknown>;
  for (const k of Object.keys(obj)) {
    const v = obj[k];
    if (typeof v === "string") {
      const m = fn(v);
      if (m === v) continue;
      // A "__proto__" key (JSON.parse makes it an own property) must stay a property: a plain
      // assignment would call the prototype setter instead.
      if (k === "__proto__") Object.defineProperty(obj, k, { value: m, enumerable: true, writable: true, configurable: true });
      else obj[k] = m;
    } else if (v !== null && typeof v === "object") mapStringsInPlace(v, fn);
  }
  return obj;
}

/**
 * An in-place `maskPiiJson` that remembers the masked form of short strings, for an export:
 * masking is a pure function of the string, and most strings of a row repeat across rows
 * ("user", "assistant", "stop", the model, the system prompt), while each costs the whole
 * detector table (2-3 us even for "user", measured with bench/dashboard/export-parts.ts).
 *
 * The returned function MUTATES its argument: every string value of it is replaced by its masked
 * form and the same value is returned (a top-level string is returned masked). Give it only
 * values the caller owns, e.g. fresh from `JSON.parse` or the database driver: no copy is made,
 * which saved a third of the masking time. The result is deep-equal to `maskPiiJson` of the
 * original (property-tested); memory is bounded by MEMO_MAX_ENTRIES strings of at most
 * MEMO_MAX_LENGTH units.
 */
export function memoizedMasker(): (value: unknown) => unknown {
  let memo = new Map<string, string>();
  const text = (s: string): string => {
    if (s.length > MEMO_MAX_LENGTH) return maskPiiText(s);
    let masked = memo.get(s);
    if (masked === undefined) {
      masked = maskPiiText(s);
      if (memo.size >= MEMO_MAX_ENTRIES) memo = new Map();
      memo.set(s, masked);
    }
    return masked;
  };
  return (value: unknown) => mapStringsInPlace(value, text);
}
