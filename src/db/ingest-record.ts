/**
 * What every ingest path shares below the routes: the record of one logged call (`LogRecord`),
 * the SQL condition for a key that may log, and the time bound of the check for records already stored. Apart from src/db/ingest.ts so that the body
 * writer (src/bodies/place.ts, src/db/body-objects.ts), which ingest calls, can use them without
 * importing ingest back.
 */
import { type SQL, sql } from "drizzle-orm";
import type { ScorableCall } from "../scoring/types";
import { piiFreeVersion } from "../pii/mask";
import { requestsTimeCondition } from "./request-time";

/** The fields of one logged call, as validated by POST /internal/log (units as in ScorableCall; costs stored by `storedCost`, src/pricing/logged-cost.ts). */
export interface LogRecord extends Omit<ScorableCall, "metadata" | "cost_usd"> {
  /** US dollars; absent or null when unknown. */
  cost_usd?: number | null | undefined;
  metadata: Record<string, unknown>;
  /** When the call started; defaults to the time of insert. */
  created_at?: Date | undefined;
}

/** SQL true for an `api_keys` row that may log: not revoked, not past its rotation expiry, with the `ingest` scope. */
export const keyMayIngestSql = sql`revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now()) AND 'ingest' = ANY(scopes)`;

/**
 * The `created_at` bound (on `column`) of a batch path's check for records already stored (a
 * redelivery): the records' own `created_at` (a redelivery carries the stored one), so the
 * check reads only those months; `true` (every month) when a record has none (its row holds the
 * time of its first receipt, which only a read of every month can find).
 */
export function storedTimeCondition(column: SQL, records: readonly { id: string; created_at?: Date | undefined }[]): SQL {
  if (!records.every((r) => r.created_at)) return sql`true`;
  return requestsTimeCondition(
    column,
    records.map((r) => ({ id: r.id, created_at: r.created_at!.toISOString() })),
  )!;
}

/**
 * `llm_requests.pii_free_version` of `record`: the masker's version when masking changes none
 * of its metadata and bodies, else null (src/pii/mask.ts `piiFreeVersion`). A record is stored
 * as it is: every ingest path made it storable when it parsed it (`storableJson`,
 * src/ingest/input.ts; masking under `store_pii: mask` keeps it so), so these are the values the
 * export reads back. Ingest computes it on the record it stores.
 */
export function recordPiiFreeVersion(record: LogRecord): number | null {
  return piiFreeVersion(record.metadata, record.request_body, record.response_body ?? null);
}
