/**
 * Serialises a log record within a byte budget, with secrets scrubbed (src/auth/redact.ts: in string
 * values and object keys at any depth, plus every Sightline key).
 *
 * POST /internal/log refuses bodies over 2 MiB with 413, so a record is kept under
 * `LOG_BUDGET_BYTES` (1.45 MB): when larger, every string longer than a limit is cut to it
 * (the limit is chosen so the longest texts shrink first) and, if still needed, long arrays
 * (embedding vectors, many choices) are cut too. Truncated values say how much was dropped,
 * and the caller marks `metadata.truncated = true`.

 */
import { redactSecrets } from "../../../src/auth/redact";

/** Largest serialised log record: 1.45 MB (the API answers 413 above 2 MiB). */
export const LOG_BUDGET_BYTES = 1_450_000;

/** Shortest string limit tried before arrays are cut too. */
const MIN_STRING_LIMIT = 256;

const encoder = new TextEncoder();
const byteLength = (s: string) => encoder.encode(s).byteLength;

/** Deep copy of `value` with `fn` applied to every string and `onArray` to every array. */
function mapValue(value: unknown, fn: (s: string) => string, onArray: (a: unknown[]) => unknown[] = (a) => a): unknown {
  if (typeof value === "string") return fn(value);
  if (Array.isArray(value)) return onArray(value.map((v) => mapValue(v, fn, onArray)));
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapValue(v, fn, onArray);
    return out;
  }
  return value;
}

/** Cuts `s` to `limit` UTF-16 units without splitting a surrogate pair, noting what was dropped. */
export function cutString(s: string, limit: number): string {
  if (s.length <= limit) return s;
  let end = limit;
  const last = s.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${s.slice(0, end)}…[truncated ${s.length - end} chars]`;
}

/** String limit that removes about `excess` characters, cutting the longest strings first. */
function stringLimit(value: unknown, excess: number): number {
  const lengths: number[] = [];
  mapValue(value, (s) => {
    lengths.push(s.length);
    return s;
  });
  lengths.sort((a, b) => b - a);
  // Water-filling: lower the limit until the characters above it cover the excess.
  let removed = 0;
  for (let i = 0; i < lengths.length; i++) {
    const next = lengths[i + 1] ?? 0;
    const step = (lengths[i]! - next) * (i + 1);
    if (removed + step >= excess) return Math.max(MIN_STRING_LIMIT, Math.floor(lengths[i]! - (excess - removed) / (i + 1)));
    removed += step;
  }
  return MIN_STRING_LIMIT;
}

/** The serialised record and whether anything was cut. */
export interface Fitted {
  json: string;
  truncated: boolean;
}

/**
 * Serialises `record` with every occurrence of `secrets` (and of any Sightline key) replaced by
 * `[REDACTED]` in string values and object keys (`redactSecrets`), within `maxBytes`. `mark` is applied to the copy when something had to be cut (sets the flag).
 */
export function fitRecord(
  record: Record<string, unknown>,
  secrets: readonly string[],
  mark: (r: Record<string, unknown>) => void,
  maxBytes = LOG_BUDGET_BYTES,
): Fitted {
  const clean = redactSecrets(record, secrets);
  let json = JSON.stringify(clean);
  let size = byteLength(json);
  if (size <= maxBytes) return { json, truncated: false };

  let strLimit = stringLimit(clean, size - maxBytes);
  let arrLimit = Infinity;
  for (let attempt = 0; attempt < 16; attempt++) {
    const cut = mapValue(
      clean,
      (s) => cutString(s, strLimit),
      (a) => (a.length > arrLimit ? [...a.slice(0, arrLimit), `…[truncated ${a.length - arrLimit} items]`] : a),
    ) as Record<string, unknown>;
    mark(cut);
    json = JSON.stringify(cut);
    size = byteLength(json);
    if (size <= maxBytes) return { json, truncated: true };
    if (strLimit > MIN_STRING_LIMIT) strLimit = Math.max(MIN_STRING_LIMIT, Math.floor(strLimit / 2));
    else arrLimit = arrLimit === Infinity ? 1024 : Math.max(1, Math.floor(arrLimit / 4));
  }
  // Pathological shapes (a huge number of small values): keep the record, drop the bodies.
  const bare = { ...clean, metadata: { ...(clean.metadata as object) }, request_body: { truncated: true }, response_body: { truncated: true } };
  mark(bare);
  return { json: JSON.stringify(bare), truncated: true };
}
