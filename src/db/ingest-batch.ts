/**
 * Batch ingest for the `log-records` consumer (docs/decisions.md D14 and D7): ONE
 * SQL statement stores a whole batch of records from any number of projects. It
 *
 * 1. resolves each distinct key hash once (unknown, revoked and expired keys, and keys without the
 *    `ingest` scope, store nothing),
 * 2. skips records whose id is already stored (a redelivery: idempotent on the record id the
 *    proxy chose, which is the row's primary key) and duplicates inside the batch,
 * 3. locks each project's subscription row once, in project id order (so two batches never
 *    deadlock), resets an ended period, grants `min(wanted, limit - used)` records and moves
 *    the counter once by that number: exact, never one over the limit,
 * 4. inserts the granted records (each project's earliest in batch order first) and adds the
 *    inserted ones to their (project, hour) rollup rows (src/db/rollups.ts; one upsert row per
 *    project and hour, so a redelivered record, which inserts nothing, counts nothing),
 * 5. returns one outcome per input record.
 *
 * Records of a project whose policy masks personal data (`store_pii: "mask"`, docs/policy.md)
 * are held back by the first run (outcome `mask`, nothing stored or counted), masked
 * (src/policy/mask.ts) and stored by a second run of the statement for those records only.
 *
 * Bodies (docs/capture.md "Bodies in R2"): when a record has a body over `INLINE_BODY_BYTES`, the batch
 * first goes through src/bodies/place.ts (its projects resolved and masked in one statement,
 * the large bodies written to one R2 object per project), then ONE run of the statement stores
 * the rows with their pointers. The preview and the search document are computed by the
 * statement from the whole bodies, which it receives either way; only small bodies are stored
 * inline. A batch whose R2 write fails throws before any row is stored.
 *
 * Exactness under concurrency: the `locked` CTE reads the subscription rows `FOR UPDATE`; under
 * READ COMMITTED it waits for a concurrent writer (the API's per-call statement or another
 * batch) and then reads the row's newest version, and the UPDATE sets the counter from that
 * read, so no increment is lost or doubled. Two deliveries of one record in flight at the same
 * moment in two invocations could both pass step 2; the second insert is then skipped by
 * `ON CONFLICT (id, created_at) DO NOTHING` and that record is counted twice (never stored twice). Queues
 * redeliver after a failed or timed-out invocation, so this needs two consumers racing on one
 * message; the error is conservative (a count, not a row).
 */
import { sql } from "drizzle-orm";
import { nextPeriodResetSql } from "../billing/periods";
import type { TierLimits } from "../billing/tiers";
import type { Db } from "./driver/client";
import { addRequestsToRollup } from "./rollups";
import { periodExpiredSql, tierLimitSql } from "./ingest";
import { keyMayIngestSql, type LogRecord, recordPiiFreeVersion, storedTimeCondition } from "./ingest-record";
import { maskRecord, withoutMaskedVerdict } from "../policy/mask";
import { policyFromStored } from "../policy/schema";
import { storedCost } from "../pricing/logged-cost";
import { placeBatch } from "../bodies/place";
import type { BodyBucket } from "../bodies/bucket";
import { INLINE, needsObject, type BodyPlacement } from "../bodies/write";
import { referenceBodyObjects } from "./body-objects";
import { requestPreview, requestSearchDocument } from "./schema";

/** One record to store: its id (UUIDv7 from the proxy), the key hash it came with, the fields. */
export interface BatchEntry {
  id: string;
  keyHash: string;
  record: LogRecord;
}

/**
 * What happened to one record:
 * - `stored`: inserted now and counted;
 * - `duplicate`: a row with this id already existed (a redelivery); not counted again;
 * - `key`: unknown, revoked or expired key, or one without the `ingest` scope; nothing stored;
 * - `quota`: the project's limit was reached; nothing stored (like a 429 on POST /internal/log).
 */
export type BatchOutcome = "stored" | "duplicate" | "key" | "quota";

/** Outcome of one entry; `projectId` is known for every outcome but `key`. */
export interface BatchResult {
  id: string;
  projectId: string | null;
  outcome: BatchOutcome;
  /** The stored row's `created_at` as PostgreSQL's text (`stored` and `duplicate`; null otherwise), for the scoring job. */
  created_at: string | null;
}

/** A row of the statement: `mask` (with the project's policy) is an outcome of the first run only. */
type StatementRow = { id: string; project_id: string | null; outcome: BatchOutcome | "mask"; mask_policy: unknown; created_at: string | null };

/**
 * The batch as one jsonb parameter (an array of rows for `jsonb_to_recordset`). The records'
 * text must already be storable (src/ingest/input.ts `storableJson`, applied by the consumer to each
 * record as it is read): a NUL would fail the statement as a data error.
 */
export function batchParameter(entries: readonly BatchEntry[], placements?: readonly BodyPlacement[]): string {
  const rows = entries.map((e, ord) => ({
    ...storedCost(e.record),
    ...(placements?.[ord] ?? INLINE),
    ord,
    id: e.id,
    key_hash: e.keyHash,
    model: e.record.model,
    provider: e.record.provider,
    prompt_tokens: e.record.prompt_tokens,
    completion_tokens: e.record.completion_tokens,
    latency_ms: e.record.latency_ms,
    request_body: e.record.request_body,
    response_body: e.record.response_body ?? null,
    metadata: e.record.metadata,
    created_at: e.record.created_at?.toISOString() ?? null,
    pii_free_version: recordPiiFreeVersion(e.record),
  }));
  return JSON.stringify(rows);
}

/**
 * Stores `entries` in one statement (two when a project masks), large bodies in `bodies` first;
 * see the module doc. `bodies` null (a Node tool without R2): every body inline. Throws what the
 * driver or R2 throws.
 */
export async function ingestBatch(db: Db, entries: readonly BatchEntry[], limits: TierLimits, bodies: BodyBucket | null): Promise<BatchResult[]> {
  if (entries.length === 0) return [];
  // Only ingest writes `metadata.pii_masked` (src/policy/mask.ts).
  const clean = entries.map((e) => ({ ...e, record: { ...e.record, metadata: withoutMaskedVerdict(e.record.metadata) } }));
  if (bodies && clean.some((e) => needsObject(e.record))) {
    const placed = await placeBatch(db, bodies, clean);
    const rows = await runStatement(
      db,
      clean.map((e, i) => ({ ...e, record: placed[i]!.record })),
      limits,
      true,
      placed.map((p) => p.placement),
    );
    return rows.map(batchResult);
  }
  const rows = await runStatement(db, clean, limits, false);
  const held = clean.flatMap((e, i) =>
    rows[i]!.outcome === "mask" ? [{ i, entry: { ...e, record: maskRecord(e.record, policyFromStored(rows[i]!.mask_policy)) } }] : [],
  );
  if (held.length > 0) {
    const again = await runStatement(
      db,
      held.map((h) => h.entry),
      limits,
      true,
    );
    held.forEach((h, k) => {
      rows[h.i] = again[k]!;
    });
  }
  return rows.map(batchResult);
}

/** The outcome of a statement row (a held-back `mask` that was never stored counts as `quota`). */
const batchResult = (r: StatementRow): BatchResult => ({
  id: r.id,
  projectId: r.project_id,
  outcome: r.outcome === "mask" ? "quota" : r.outcome,
  created_at: r.created_at,
});

/**
 * One run of the statement; `masked`: the entries' bodies are already masked under their
 * project's policy (the second run, or after src/bodies/place.ts); `placements`: where each
 * entry's bodies are (all inline when absent).
 */
async function runStatement(
  db: Db,
  entries: readonly BatchEntry[],
  limits: TierLimits,
  masked: boolean,
  placements?: readonly BodyPlacement[],
): Promise<StatementRow[]> {
  const expired = periodExpiredSql;
  const result = (await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${batchParameter(entries, placements)}::jsonb) AS t(
        ord int, id uuid, key_hash text, model text, provider text, prompt_tokens int, completion_tokens int,
        cost_usd numeric, cost_source text, cache_read_tokens int, cache_write_tokens int, latency_ms int, request_body jsonb, response_body jsonb, metadata jsonb, created_at timestamptz,
        body_key text, request_body_offset int, request_body_length int, response_body_offset int, response_body_length int, pii_free_version smallint)
    ),
    keys AS (
      SELECT k.key_hash, k.project_id, p.policy AS mask_policy FROM api_keys k
      LEFT JOIN project_policies p ON p.project_id = k.project_id AND p.policy ->> 'store_pii' = 'mask'
      WHERE k.key_hash IN (SELECT key_hash FROM input) AND ${keyMayIngestSql}
    ),
    existing AS (
      SELECT id, project_id, created_at FROM llm_requests WHERE id IN (SELECT id FROM input) AND ${storedTimeCondition(
        sql`created_at`,
        entries.map((e) => ({ id: e.id, created_at: e.record.created_at })),
      )}
    ),
    fresh AS (
      SELECT DISTINCT ON (i.id) i.*, k.project_id
      FROM input i JOIN keys k USING (key_hash)
      WHERE i.id NOT IN (SELECT id FROM existing) AND (${masked}::boolean OR k.mask_policy IS NULL)
      ORDER BY i.id, i.ord
    ),
    wanted AS (
      SELECT project_id, count(*) AS n FROM fresh GROUP BY project_id
    ),
    locked AS (
      SELECT s.project_id, CASE WHEN ${expired} THEN 0 ELSE s.requests_this_period END AS used, ${tierLimitSql(limits)} AS lim
      FROM subscriptions s WHERE s.project_id IN (SELECT project_id FROM wanted)
      ORDER BY s.project_id
      FOR UPDATE
    ),
    granted AS (
      SELECT l.project_id, l.used,
        CASE WHEN l.lim IS NULL THEN w.n ELSE LEAST(w.n, GREATEST(l.lim - l.used, 0)) END AS accepted
      FROM locked l JOIN wanted w USING (project_id)
    ),
    sub AS (
      UPDATE subscriptions AS s SET
        requests_this_period = g.used + g.accepted,
        period_reset_at = CASE WHEN ${expired} THEN ${nextPeriodResetSql} ELSE s.period_reset_at END,
        period_start_at = CASE WHEN ${expired} THEN ${nextPeriodResetSql} - interval '1 month' ELSE s.period_start_at END,
        updated_at = now()
      FROM granted g
      WHERE s.project_id = g.project_id AND g.accepted > 0
      RETURNING s.project_id, g.accepted
    ),
    ranked AS (
      SELECT f.*, row_number() OVER (PARTITION BY f.project_id ORDER BY f.ord) AS rn FROM fresh f
    ),
    ins AS (
      INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, cost_source,
        cache_read_tokens, cache_write_tokens, latency_ms, request_body, response_body, metadata, created_at, scoring_state, enqueued_at,
        body_key, request_body_offset, request_body_length, response_body_offset, response_body_length, preview, search_tsv, pii_free_version)
      SELECT r.id, r.project_id, r.model, r.provider, r.prompt_tokens, r.completion_tokens, r.cost_usd, r.cost_source,
        r.cache_read_tokens, r.cache_write_tokens, r.latency_ms,
        CASE WHEN r.request_body_length IS NULL THEN r.request_body END, CASE WHEN r.response_body_length IS NULL THEN r.response_body END,
        r.metadata, coalesce(r.created_at, now()), 'queued', now(),
        r.body_key, r.request_body_offset, r.request_body_length, r.response_body_offset, r.response_body_length,
        ${requestPreview(sql`r.request_body`)}, ${requestSearchDocument(sql`r.request_body`, sql`r.response_body`)}, r.pii_free_version
      FROM ranked r JOIN sub USING (project_id)
      WHERE r.rn <= sub.accepted
      ON CONFLICT (id, created_at) DO NOTHING
      RETURNING id, project_id, created_at, latency_ms, cost_usd, is_error, prompt_tokens, completion_tokens, body_key
    ),
    rollup AS (${addRequestsToRollup(sql`ins`)}),
    referenced AS (${referenceBodyObjects(sql`ins`)})
    SELECT i.id, coalesce(e.project_id, k.project_id) AS project_id,
      CASE WHEN ins.id IS NOT NULL THEN 'stored' WHEN e.id IS NOT NULL THEN 'duplicate'
        WHEN k.project_id IS NULL THEN 'key' WHEN k.mask_policy IS NOT NULL AND NOT ${masked}::boolean THEN 'mask' ELSE 'quota' END AS outcome,
      CASE WHEN NOT ${masked}::boolean THEN k.mask_policy END AS mask_policy,
      coalesce(ins.created_at, e.created_at)::text AS created_at
    FROM input i
      LEFT JOIN keys k USING (key_hash)
      LEFT JOIN existing e ON e.id = i.id
      LEFT JOIN ins ON ins.id = i.id
    ORDER BY i.ord`)) as unknown as { rows: StatementRow[] };
  return result.rows;
}
