/**
 * Turning arbitrary JavaScript values into JSON-safe data, in two steps on two sides:
 *
 * - `snapshot` runs on the application's call path. It copies plain containers (objects,
 *   arrays) so a later `messages.push(...)` by the application does not change the record.
 *   Leaves (strings, numbers, class instances) are kept by reference: its cost grows with
 *   the number of containers, not with the amount of text.
 * - `toJsonable` runs in the delivery loop. It converts everything to plain JSON data:
 *   `toJSON()`, Map/Set, errors, class instances through their own enumerable fields.
 */

/** Deeper structures are cut (protects against cycles and abuse). */
export const MAX_DEPTH = 32;
/** Longest string kept for a value that has no JSON form. */
const MAX_DESCRIPTION_CHARS = 2000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/** Reads `name` from an object (own or inherited), `undefined` when absent or unreadable. */
export function getField(obj: unknown, name: string): unknown {
  if (obj === null || typeof obj !== "object") return undefined;
  try {
    return (obj as Record<string, unknown>)[name];
  } catch {
    return undefined;
  }
}

/**
 * Copies the plain-container structure of `value` (plain objects and arrays, up to
 * `MAX_DEPTH`); keeps everything else by reference. Never throws.
 */
export function snapshot<T>(value: T, depth = 0): T {
  try {
    if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = snapshot(value[i], depth + 1);
      return out as T;
    }
    if (!isPlainObject(value)) return value;
    const out: Record<string, unknown> = {};
    for (const key in value) {
      if (Object.hasOwn(value, key)) out[key] = snapshot((value as Record<string, unknown>)[key], depth + 1);
    }
    return out as T;
  } catch {
    return value;
  }
}

function describe(value: unknown): string {
  let text: string;
  try {
    if (typeof value === "function") text = `[Function ${value.name || "anonymous"}]`;
    else if (typeof value === "symbol") text = value.toString();
    else text = String(value);
  } catch {
    text = "<unrepresentable>";
  }
  return text.length > MAX_DESCRIPTION_CHARS ? text.slice(0, MAX_DESCRIPTION_CHARS) + "...<truncated>" : text;
}

/**
 * Returns a JSON-safe copy of `value`. Non-finite numbers become strings, bigints decimal
 * strings, Dates ISO strings, Map an object, Set an array, Errors `{type, message}`, binary
 * data a size marker, cycles `"<cycle>"`, functions and symbols a description. Never throws.
 */
export function toJsonable(value: unknown): Json {
  return convert(value, 0, new Set());
}

function convert(value: unknown, depth: number, seen: Set<object>): Json {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
      return value.toString();
    case "undefined":
      return null;
    case "function":
    case "symbol":
      return describe(value);
  }
  if (value === null) return null;
  const obj = value as object;
  if (depth > MAX_DEPTH) return "<max depth>";
  if (seen.has(obj)) return "<cycle>";
  seen.add(obj);
  try {
    if (Array.isArray(obj)) return obj.map((v) => convert(v, depth + 1, seen));
    if (obj instanceof Date) return Number.isNaN(obj.getTime()) ? "Invalid Date" : obj.toISOString();
    if (obj instanceof Error) return errorInfo(obj);
    if (obj instanceof Map) {
      const out: Record<string, Json> = {};
      for (const [k, v] of obj) out[typeof k === "string" ? k : describe(k)] = convert(v, depth + 1, seen);
      return out;
    }
    if (obj instanceof Set) return [...obj].map((v) => convert(v, depth + 1, seen));
    if (ArrayBuffer.isView(obj) || obj instanceof ArrayBuffer) return `<binary ${(obj as ArrayBuffer).byteLength} bytes>`;
    const toJSON = (obj as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") return convert(toJSON.call(obj), depth + 1, seen);
    const out: Record<string, Json> = {};
    for (const key of Object.keys(obj)) {
      const v = (obj as Record<string, unknown>)[key];
      if (v === undefined || typeof v === "function") continue;
      out[key] = convert(v, depth + 1, seen);
    }
    return out;
  } catch {
    return describe(obj);
  } finally {
    seen.delete(obj);
  }
}

/**
 * Rough token count of all text inside `value`: characters / 4, rounded up. Used only when
 * the provider reports no usage (the record then has `metadata.token_count_source = "estimated"`).
 */
export function estimateTokens(value: unknown): number {
  return Math.ceil(countChars(value, 0) / 4);
}

function countChars(value: unknown, depth: number): number {
  if (depth > MAX_DEPTH || value === null) return 0;
  if (typeof value === "string") return value.length;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countChars(v, depth + 1), 0);
  if (typeof value === "object") {
    let n = 0;
    for (const v of Object.values(value as object)) n += countChars(v, depth + 1);
    return n;
  }
  return 0;
}

/** `value` as a non-negative integer, or `undefined` when it is not a usable number. */
export function asInt(value: unknown): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return undefined;
  return Math.floor(value);
}

/** The `metadata.error` object of a failed call: `{type, message}` (message cut at 4000 chars). */
export function errorInfo(error: unknown): { type: string; message: string } {
  let type = "Error";
  let message: string;
  try {
    if (error instanceof Error) {
      type = error.constructor?.name && error.constructor.name !== "Error" ? error.constructor.name : error.name || "Error";
      message = error.message;
    } else {
      type = error === null ? "null" : typeof error;
      message = describe(error);
    }
  } catch {
    message = "<unprintable>";
  }
  return { type, message: String(message).slice(0, 4000) };
}

const camelToSnake = (key: string) => key.replace(/[A-Z]/g, (c) => "_" + c.toLowerCase());

/**
 * Converts the keys of `value` from camelCase to snake_case, recursively, leaving the
 * values under `opaque` keys (user-defined names such as JSON-schema properties) as they
 * are. Used to give records of SDKs that rename wire fields (cohere-ai) their wire form.
 */
export function snakeKeys(value: Json, opaque: ReadonlySet<string>, depth = 0): Json {
  if (value === null || typeof value !== "object" || depth > MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v, opaque, depth + 1));
  const out: Record<string, Json> = {};
  for (const [key, v] of Object.entries(value)) {
    const snake = camelToSnake(key);
    out[snake] = opaque.has(snake) ? v : snakeKeys(v, opaque, depth + 1);
  }
  return out;
}
