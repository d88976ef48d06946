/**
 * Personal data in what Sightline shows to someone who may not see it raw (issue 26.2, 32): every
 * path that returns stored text (the request list, the detail, the export) masks it with the one
 * function the export uses (`maskPiiJson`, src/export/mask-pii.ts: each span the PII detectors find
 * becomes `[KIND]`), and a text search by such a caller must not confirm that a masked value exists.
 * Used by the dashboard server (roles below admin) and the API (keys without the `admin` scope).
 */
import type { Db } from "../db/driver/client";
import { maskPiiJson, maskPiiText } from "../export/mask-pii";

/** Fields of a request record that hold text the caller stored (bodies, metadata, model, provider). */
export const STORED_TEXT_FIELDS = ["model", "provider", "metadata", "request_body", "response_body"] as const;

/** A copy of `record` with every stored-text field present masked by `maskPiiJson`. */
export function maskStoredText<T extends object>(record: T): T {
  const out = { ...record } as Record<string, unknown>;
  for (const field of STORED_TEXT_FIELDS) if (field in out) out[field] = maskPiiJson(out[field]);
  return out as T;
}

/** Query parameters that match stored text. */
export const TEXT_FILTERS = ["q", "model", "provider"] as const;

/**
 * The first text filter of `query` (`q`, `model`, `provider`) in which the PII detectors find
 * personal data, or null. A caller who may not see personal data is refused such a search (403)
 * whatever the rows hold, so the answer says nothing about them. `db`: the database whose text
 * search the filter would run (issue 32.3 judges what PostgreSQL searches for, not the raw string).
 */
export async function personalDataFilter(_db: Db, query: Partial<Record<string, string>>): Promise<(typeof TEXT_FILTERS)[number] | null> {
  for (const name of TEXT_FILTERS) {
    const text = query[name];
    if (text && maskPiiText(text) !== text) return name;
  }
  return null;
}
