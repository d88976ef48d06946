/**
 * Redaction of credentials in what is stored, shared by every writer of log records (the API's
 * ingest; the capture proxy should use it for its records too). A secret is replaced by
 * `[REDACTED]` wherever it appears in text: in string values and in object keys, at any
 * depth, so a key pasted as a JSON property name is treated like the same key in a message.
 * Sightline keys (`slk_` + 48 hex) are redacted whether or not they were presented: each is
 * a credential of some project.
 */
import { KEY_PATTERN } from "./keys";

/** What a redacted secret becomes. */
export const REDACTED = "[REDACTED]";

/** Shortest value treated as a secret: shorter ones are too likely to match ordinary text. */
export const MIN_SECRET_LENGTH = 8;

/** Any Sightline key inside a longer text (KEY_PATTERN without its anchors). */
const SIGHTLINE_KEY = new RegExp(KEY_PATTERN.source.replace(/^\^|\$$/g, ""), "g");

/** `text` with every occurrence of each secret, and every Sightline key, replaced. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out.includes("slk_") ? out.replace(SIGHTLINE_KEY, REDACTED) : out;
}

/**
 * A copy of the JSON value `value` with `redactText` applied to every string and object key;
 * `value` itself when nothing matched. Secrets shorter than `MIN_SECRET_LENGTH` are ignored.
 * Depth is bounded by the caller (`MAX_JSON_DEPTH` of ./input.ts for request bodies).
 */
export function redactSecrets<T>(value: T, secrets: readonly string[]): T {
  const usable = secrets.map((s) => s.trim()).filter((s) => s.length >= MIN_SECRET_LENGTH);
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return redactText(v, usable);
    if (typeof v !== "object" || v === null) return v;
    if (Array.isArray(v)) {
      const items = v.map(walk);
      return items.some((item, i) => item !== v[i]) ? items : v;
    }
    let changed = false;
    const entries = Object.entries(v).map(([k, item]) => {
      const key = redactText(k, usable);
      const next = walk(item);
      if (key !== k || next !== item) changed = true;
      return [key, next] as const;
    });
    return changed ? Object.fromEntries(entries) : v;
  };
  return walk(value) as T;
}
