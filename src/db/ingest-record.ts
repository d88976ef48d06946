/**
 * What every ingest path shares below the routes: the record of one logged call (`LogRecord`)
 * and the SQL condition for a key that may log. Apart from src/db/ingest.ts so that the body
 * writer (src/bodies/place.ts, src/db/body-objects.ts), which ingest calls, can use them without
 * importing ingest back.
 */
import { sql } from "drizzle-orm";
import type { ScorableCall } from "../scoring/types";

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
