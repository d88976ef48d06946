/**
 * Ingest with quota: one SQL statement resolves the caller's API key (when one was given),
 * resets the period when `period_reset_at` has passed, checks the tier limit, increments
 * `requests_this_period` and inserts the request (docs/decisions.md D7): one round trip on the
 * hot path. The UPDATE takes the subscription row lock; under READ COMMITTED a
 * concurrent statement waits for it and re-checks the WHERE clause on the new row version,
 * so the limit is exact under any concurrency: never one request over it. The same statement
 * adds the stored request to its hour's rollup row (src/db/rollups.ts).
 *
 * A project whose policy says `store_pii: "mask"` (docs/policy.md) gets nothing stored by the
 * first run of the statement, which answers with the policy instead; the record is masked
 * (src/policy/mask.ts) and the statement runs again. So the original bodies never reach the
 * table, and other projects pay nothing for it.
 *
 * A record with a body over `INLINE_BODY_BYTES` (docs/capture.md "Bodies in R2") first has its project
 * resolved, is masked when that project masks, and has its large bodies written to R2
 * (src/bodies/place.ts); then the statement runs once, storing the pointers. The preview and
 * search document are computed by the statement from the whole bodies either way.
 */
import { sql } from "drizzle-orm";
import { nextPeriodResetSql } from "../billing/periods";
import type { TierLimits } from "../billing/tiers";
import type { Tier } from "../enums";
import type { Db } from "./driver/client";
import { lookupKey, type KeyLookup } from "./keys";
import { getBillingAccount } from "./billing";
import { addRequestsToRollup } from "./rollups";
import { requestIdAt } from "./request-time";
import { keyMayIngestSql, type LogRecord, recordPiiFreeVersion } from "./ingest-record";
import { storableJson, storableText } from "../ingest/input";
import { maskRecord, withoutMaskedVerdict } from "../policy/mask";
import { policyFromStored } from "../policy/schema";
import { storedCost } from "../pricing/logged-cost";
import { placeRecord } from "../bodies/place";
import type { BodyBucket } from "../bodies/bucket";
import { INLINE, needsObject, type BodyPlacement } from "../bodies/write";
import { referenceBodyObjects } from "./body-objects";
import { requestPreview, requestSearchDocument } from "./schema";

/**
 * Who a log record is for: a project already authenticated (internal secret), or the SHA-256
 * hex of an API key still to be checked (unknown, revoked and expired keys, and keys without
 * the `ingest` scope, insert nothing).
 */
export type IngestCredential = { projectId: string } | { keyHash: string };

/** Outcome of `ingestWithQuota`. */
export type IngestResult =
  | { ok: true; id: string; projectId: string /** The stored `created_at` as PostgreSQL's text (for the scoring job). */; created_at: string }
  | { ok: false; reason: "quota"; tier: Tier; limit: number; used: number; period_reset_at: Date }
  | { ok: false; reason: "key"; key: Extract<KeyLookup, { ok: false }>["reason"] }
  | { ok: false; reason: "scope" }
  | { ok: false; reason: "project" };

/**
 * JSON text for a jsonb parameter, storable by PostgreSQL: NUL and lone surrogates in any key
 * or value become U+FFFD (the decision of `../input.ts`). Throws `TooDeepError` for nesting
 * deeper than `MAX_JSON_DEPTH`.
 */
export function toJsonb(value: unknown): string {
  return JSON.stringify(storableJson(value ?? null).value);
}

/** SQL true when the period of subscription row `s` has passed (its counter starts again). */
export const periodExpiredSql = sql`s.period_reset_at <= now()`;

/** SQL for the monthly limit of subscription row `s` (bigint; NULL = unlimited). */
export const tierLimitSql = (limits: TierLimits) => sql`(CASE s.tier WHEN 'free' THEN ${limits.free}::bigint WHEN 'pro' THEN ${limits.pro}::bigint
    WHEN 'team' THEN ${limits.team}::bigint ELSE ${limits.enterprise}::bigint END)`;

/** SQL answering the `project_id` of `credential` (no row for a key that may not ingest). */
function callerSql(credential: IngestCredential) {
  return "projectId" in credential
    ? sql`SELECT ${credential.projectId}::uuid AS project_id`
    : sql`SELECT project_id FROM api_keys WHERE key_hash = ${credential.keyHash} AND ${keyMayIngestSql}`;
}

/**
 * Inserts `record` for the credential's project if the key is valid and the project's quota
 * allows it, its large bodies in `bodies` first; see the module doc. A refusal costs a second
 * query that says why (key or quota). `bodies` null (a Node tool without R2): bodies inline.
 * Throws what the driver or R2 throws.
 */
export async function ingestWithQuota(
  db: Db,
  credential: IngestCredential,
  logged: LogRecord,
  limits: TierLimits,
  bodies: BodyBucket | null,
): Promise<IngestResult> {
  // Only ingest writes `metadata.pii_masked` (src/policy/mask.ts).
  let record: LogRecord = { ...logged, metadata: withoutMaskedVerdict(logged.metadata) };
  if (bodies && needsObject(record)) {
    const placed = await placeRecord(db, bodies, callerSql(credential), record);
    const row = placed ? await insertRecord(db, credential, placed.record, limits, true, placed.placement) : null;
    if (row?.id && row.project_id && row.created_at) return { ok: true, id: row.id, projectId: row.project_id, created_at: row.created_at };
    return refusal(db, credential, limits);
  }
  let row = await insertRecord(db, credential, record, limits, false);
  if (!row.id && row.mask_policy) {
    record = maskRecord(record, policyFromStored(row.mask_policy));
    row = await insertRecord(db, credential, record, limits, true);
  }
  if (row.id && row.project_id && row.created_at) return { ok: true, id: row.id, projectId: row.project_id, created_at: row.created_at };
  return refusal(db, credential, limits);
}

/** The answer of one run of the ingest statement: the new row's id, or the mask policy that held it back. */
interface InsertOutcome {
  id: string | null;
  project_id: string | null;
  /** The stored row's `created_at` text. */
  created_at: string | null;
  /** The project's policy document when it masks personal data and `masked` was false. */
  mask_policy: unknown;
}

/**
 * One run of the ingest statement (module doc); `masked`: the record's bodies are already
 * masked; `placement`: where its bodies are (src/bodies/write.ts).
 */
async function insertRecord(
  db: Db,
  credential: IngestCredential,
  record: LogRecord,
  limits: TierLimits,
  masked: boolean,
  placement: BodyPlacement = INLINE,
): Promise<InsertOutcome> {
  // A UUIDv7 at the call's start, so a read by id finds its month at once (./request-time.ts).
  const id = requestIdAt(record.created_at);
  const caller = callerSql(credential);
  const limit = tierLimitSql(limits);
  const expired = periodExpiredSql;
  const cost = storedCost(record);
  const result = (await db.execute(sql`
    WITH caller AS (${caller}),
    b AS (SELECT ${toJsonb(record.request_body)}::jsonb AS request_body, ${toJsonb(record.response_body)}::jsonb AS response_body),
    mask AS (
      SELECT policy FROM project_policies
      WHERE project_id = (SELECT project_id FROM caller) AND policy ->> 'store_pii' = 'mask' AND NOT ${masked}::boolean
    ),
    sub AS (
      UPDATE subscriptions AS s SET
        requests_this_period = CASE WHEN ${expired} THEN 1 ELSE s.requests_this_period + 1 END,
        period_reset_at = CASE WHEN ${expired} THEN ${nextPeriodResetSql} ELSE s.period_reset_at END,
        period_start_at = CASE WHEN ${expired} THEN ${nextPeriodResetSql} - interval '1 month' ELSE s.period_start_at END,
        updated_at = now()
      WHERE s.project_id = (SELECT project_id FROM caller)
        AND (${limit} IS NULL OR (CASE WHEN ${expired} THEN 0 ELSE s.requests_this_period END) < ${limit})
        AND NOT EXISTS (SELECT 1 FROM mask)
      RETURNING s.project_id
    ),
    ins AS (
    INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, cost_source,
      cache_read_tokens, cache_write_tokens, latency_ms, request_body, response_body, metadata, created_at, scoring_state, enqueued_at,
      body_key, request_body_offset, request_body_length, response_body_offset, response_body_length, preview, search_tsv, pii_free_version)
    SELECT ${id}, sub.project_id, ${storableText(record.model)}, ${storableText(record.provider)}, ${record.prompt_tokens},
      ${record.completion_tokens}, ${cost.cost_usd}::numeric, ${cost.cost_source}::text, ${cost.cache_read_tokens}::int, ${cost.cache_write_tokens}::int,
      ${record.latency_ms}, ${placement.request_body_length === null ? sql`b.request_body` : sql`NULL`},
      ${placement.response_body_length === null ? sql`b.response_body` : sql`NULL`}, ${toJsonb(record.metadata)}::jsonb,
      coalesce(${record.created_at?.toISOString() ?? null}::timestamptz, now()), 'queued', now(),
      ${placement.body_key}::text, ${placement.request_body_offset}::int, ${placement.request_body_length}::int,
      ${placement.response_body_offset}::int, ${placement.response_body_length}::int,
      ${requestPreview(sql`b.request_body`)}, ${requestSearchDocument(sql`b.request_body`, sql`b.response_body`)},
      ${recordPiiFreeVersion(record)}::smallint
    FROM sub, b
    RETURNING id, project_id, created_at, latency_ms, cost_usd, is_error, prompt_tokens, completion_tokens, body_key
    ),
    rollup AS (${addRequestsToRollup(sql`ins`)}),
    referenced AS (${referenceBodyObjects(sql`ins`)})
    SELECT (SELECT id FROM ins) AS id, (SELECT project_id FROM ins) AS project_id, (SELECT created_at::text FROM ins) AS created_at,
      (SELECT policy FROM mask) AS mask_policy`)) as unknown as {
    rows: InsertOutcome[];
  };
  return result.rows[0] ?? { id: null, project_id: null, created_at: null, mask_policy: null };
}

/** Why the ingest statement stored nothing (the hot path never gets here): for a 401, a 403 (no `ingest` scope) or an informative 429. */
export async function refusal(db: Db, credential: IngestCredential, limits: TierLimits): Promise<IngestResult> {
  let projectId: string;
  if ("keyHash" in credential) {
    const found = await lookupKey(db, credential.keyHash);
    if (!found.ok) return { ok: false, reason: "key", key: found.reason };
    if (!found.scopes.includes("ingest")) return { ok: false, reason: "scope" };
    projectId = found.projectId;
  } else projectId = credential.projectId;
  const sub = await getBillingAccount(db, projectId);
  if (!sub) return { ok: false, reason: "project" }; // the internal secret named no project
  const { tier, requests_this_period: used, period_reset_at } = sub;
  return { ok: false, reason: "quota", tier, limit: limits[tier] ?? Number.POSITIVE_INFINITY, used, period_reset_at };
}
