/**
 * The one masker of personal data (issue 26.2, 32.2): storage under `store_pii: "mask"`
 * (src/policy/mask.ts), the request list, the detail and the export for callers who may not see
 * it raw (src/pii/views.ts, ./stream.ts), and the model name in alert payloads (src/alerts/).
 * Every span the PII scorer's detectors find (`findPii`, src/scoring/pii-detection.ts) is
 * replaced by its kind in brackets, e.g. `[EMAIL]`, `[CREDIT_CARD]`, so none of them carries
 * the values themselves.
 *
 * A JSON value is walked whole: string values, object keys (an address used as a key is masked
 * like a string) and numbers that are cards or phones (`jsonValuePii`, ./patterns.ts:
 * the number becomes the string `[CREDIT_CARD]` or `[PHONE]`).
 */
import { allowsValue, findPii, type PiiAllowList } from "./detect";
import { jsonValuePii } from "./patterns";

/**
 * The version of what masking does (the detectors of ./patterns.ts with their validators and
 * context words, ./detect.ts, and the walk below). Stored with a call whose metadata and bodies
 * masking leaves unchanged (`llm_requests.pii_free_version`, `piiFreeVersion`), so the export
 * skips masking them only while it is the running version. Raise it when a change can make
 * masking change a value it left before; test/unit/pii-masker-version.test.ts fails on any change
 * of those files until their new digest is recorded beside this number.
 */
export const MASKER_VERSION = 1;

/** The placeholder of a detector's hits: its id upper-cased in brackets, e.g. `[EMAIL]`. */
const placeholder = (detector: string) => `[${detector.toUpperCase()}]`;

/**
 * `text` with each detected PII span replaced by `[KIND]` (detector id upper-cased); values on
 * the `allow` list (a project's policy, docs/policy.md) are left as they are. Every hit is
 * replaced, however many (linear in the length of `text`).
 */
export function maskPiiText(text: string, allow?: PiiAllowList): string {
  const hits = findPii(text, allow);
  if (hits.length === 0) return text;
  // Spans never overlap (findPii skips claimed spans): the pieces between them, in order.
  hits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const h of hits) {
    parts.push(text.slice(at, h.start), placeholder(h.id));
    at = h.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}

/**
 * A masked copy of a JSON value (the argument is not changed: a structured clone is masked in
 * place): every string value and object key through `maskPiiText`, and every number (or string
 * of phone characters only) that `jsonValuePii` judges a card or phone under its key, as its
 * placeholder. Two keys that mask to the same text both stay: the later ones get ` #2`, ` #3`...
 * (the first free suffix, in key order). Booleans, null and other numbers are kept.
 */
export function maskPiiJson(value: unknown, allow?: PiiAllowList): unknown {
  const text = allow ? (s: string) => maskPiiText(s, allow) : maskPiiText;
  return maskInPlace(typeof value === "object" && value !== null ? structuredClone(value) : value, { text, allow }, "");
}

/** How one walk masks: `text` masks a string (maybe memoized); `allow` spares values. */
interface Walk {
  text: (s: string) => string;
  allow: PiiAllowList | undefined;
}

/** Strings up to this many UTF-16 units are remembered by `memoizedMasker` (roles, models, system prompts). */
const MEMO_MAX_LENGTH = 512;
/** Distinct strings one masker remembers; past it, it starts a fresh memo (memory stays bounded). */
const MEMO_MAX_ENTRIES = 10_000;
/** A string of phone characters only (digits, blanks, `+().-`), judged with its key by `jsonValuePii`. */
const PHONE_CHARS = /^\+?[\d ().-]{7,24}$/;

/** A scalar of a JSON value masked under its object key `key` ("" at the top level). */
function maskScalar(value: string | number, walk: Walk, key: string): unknown {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || value < 1_000_000) return value;
    const digits = String(value);
    const kind = jsonValuePii(digits, key);
    return kind && !allowsValue(walk.allow, kind, digits) ? placeholder(kind) : value;
  }
  const masked = walk.text(value);
  if (masked !== value || !PHONE_CHARS.test(value)) return masked;
  const kind = jsonValuePii(value, key);
  return kind && !allowsValue(walk.allow, kind, value) ? placeholder(kind) : value;
}

/**
 * Masks `value` in place (arrays and objects are changed, not copied; key order is kept) and
 * returns it; a scalar is returned masked. `key`: the object key `value` is under (an array's
 * items take the array's), the only context of a bare number.
 */
function maskInPlace(value: unknown, walk: Walk, key: string): unknown {
  if (typeof value === "string" || typeof value === "number") return maskScalar(value, walk, key);
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const m = maskInPlace(v, walk, key);
      if (m !== v) value[i] = m;
    }
    return value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let renamed: string[] | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i] as string;
    const v = obj[k];
    const m = maskInPlace(v, walk, k);
    if (m !== v) setOwn(obj, k, m);
    const mk = walk.text(k);
    if (mk !== k) (renamed ??= keys.slice())[i] = mk;
  }
  if (renamed) rekey(obj, keys, renamed);
  return obj;
}

/**
 * Renames the keys of `obj` in place, keeping their order: `keys[i]` becomes `names[i]`, or, when
 * that name is taken (by a kept key or an earlier renamed one), `names[i] #2`, `#3`... the first
 * free one; so no value is lost and the result depends only on the keys and their order.
 */
function rekey(obj: Record<string, unknown>, keys: string[], names: string[]): void {
  const taken = new Set(keys.filter((k, i) => names[i] === k));
  const nextSuffix = new Map<string, number>();
  const values = keys.map((k) => obj[k]);
  for (const k of keys) delete obj[k];
  keys.forEach((k, i) => {
    let name = names[i] as string;
    if (name !== k) {
      const base = name;
      for (let n = nextSuffix.get(base) ?? 2; taken.has(name); n++) {
        name = `${base} #${n}`;
        nextSuffix.set(base, n + 1);
      }
      taken.add(name);
    }
    setOwn(obj, name, values[i]);
  });
}

/** `obj[k] = v` as an own property, also for `__proto__` (a plain assignment would call the prototype setter). */
function setOwn(obj: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(obj, k, { value: v, enumerable: true, writable: true, configurable: true });
  else obj[k] = v;
}

/**
 * Whether `maskPiiJson(value)` (no allow list, as the export masks) would differ from `value`:
 * some string value or object key holds personal data, or a number or phone-character string
 * is a card or phone under its key. Reads `value` without changing it and stops at the first
 * such scalar or key; `value` is a JSON value (no cycles).
 */
export function maskChanges(value: unknown): boolean {
  return changes(value, { text: maskPiiText, allow: undefined }, "");
}

function changes(value: unknown, walk: Walk, key: string): boolean {
  if (typeof value === "string" || typeof value === "number") return maskScalar(value, walk, key) !== value;
  if (value === null || typeof value !== "object") return false;
  if (Array.isArray(value)) {
    for (const v of value) if (changes(v, walk, key)) return true;
    return false;
  }
  for (const [k, v] of Object.entries(value)) if (walk.text(k) !== k || changes(v, walk, k)) return true;
  return false;
}

/**
 * Most UTF-16 units of strings and keys `piiFreeVersion` reads for one call (64 Ki): the check
 * costs ingest about 50 ns per unit (a 1.3 MB answer took 70 ms in Node, one of digits 290 ms),
 * and a call over this is rare (the traffic calls: median 1.5 KB, p90 5.4 KB of JSON), so such a
 * call is left unmarked and the export masks it, as it masks any unmarked call.
 */
export const PII_CHECK_MAX_CHARS = 65_536;

/** Units of the strings and keys of `value`, counted until they pass `limit` (then a number above it). */
function charsUpTo(value: unknown, limit: number): number {
  let n = 0;
  const walk = (v: unknown): void => {
    if (n > limit) return;
    if (typeof v === "string") n += v.length;
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        n += k.length;
        walk(x);
      }
  };
  walk(value);
  return n;
}

/**
 * `MASKER_VERSION` when masking leaves every one of `values` (a call's stored metadata and
 * bodies, as stored: after `storableJson`) unchanged (`maskChanges`), else null: the value of
 * `llm_requests.pii_free_version` at ingest. Also null, unchecked, when their strings and keys
 * pass PII_CHECK_MAX_CHARS units together.
 */
export function piiFreeVersion(...values: unknown[]): number | null {
  let left = PII_CHECK_MAX_CHARS;
  for (const v of values) {
    left -= charsUpTo(v, left);
    if (left < 0) return null;
  }
  for (const v of values) if (maskChanges(v)) return null;
  return MASKER_VERSION;
}

/**
 * An in-place `maskPiiJson` that remembers the masked form of short strings (values and keys),
 * for an export: masking is a pure function of the string, and most strings of a row repeat
 * across rows ("user", "assistant", "stop", the model, the system prompt, the keys), while each
 * costs the whole detector table (2-3 us even for "user", measured with
 * bench/dashboard/export-parts.ts).
 *
 * The returned function MUTATES its argument: every string value, key and masked number of it
 * is replaced by its masked form and the same value is returned (a top-level scalar is returned
 * masked). Give it only values the caller owns, e.g. fresh from `JSON.parse` or the database
 * driver: no copy is made, which saved a third of the masking time. The result is deep-equal to
 * `maskPiiJson` of the original (property-tested); memory is bounded by MEMO_MAX_ENTRIES
 * strings of at most MEMO_MAX_LENGTH units.
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
  const walk: Walk = { text, allow: undefined };
  return (value: unknown) => maskInPlace(value, walk, "");
}
