/**
 * Queries of the scoring pipeline: load a batch of requests, write their scores idempotently,
 * and find requests still waiting for scores (for the sweep).
 */
import { and, eq, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Cost } from "../pricing/price-call";
import type { PolicyScore } from "../policy/apply";
import type { ScorableCall } from "../scoring/types";
import type { Db } from "./driver/client";
import { requestSummaryColumns } from "./requests";
import { insertAlertDeliveries } from "./alerts";
import { addCostsToRollup, scoreChangesToRollup } from "./rollups";
import type { COST_SOURCES, SCORING_STATES } from "../enums";
import { llmRequests, projectPolicies } from "./schema";
import { idsWithin, readByRefs, type RequestRef, requestIdAt, requestsTimeCondition, storedTime } from "./request-time";
import { policyFromStored, type VersionedPolicy } from "../policy/schema";
import { storedBodyColumns } from "../bodies/columns";
import { readBodies } from "../bodies/read";
import type { BodyBucket } from "../bodies/bucket";

type ScoringState = (typeof SCORING_STATES)[number];

/** `cost_source` of a cost the scorer computed. */
const PRICED_SOURCE: (typeof COST_SOURCES)[number] = "genai-prices";

/**
 * A stored request as the scorers need it, with its scoring state (`scored` means its score
 * rows are stored: saveScores writes them before it sets the state) and its project's policy
 * in force (src/policy/schema.ts; version 0 = the default policy).
 */
export type StoredCall = ScorableCall & {
  id: string;
  project_id: string;
  /** The request's `created_at` as PostgreSQL's text (microseconds kept): its scores' `created_at` and partition key. */
  created_at: string;
  scoring_state: ScoringState;
  policy: VersionedPolicy;
};

/**
 * Loads the requests `refs` and their projects' policies in one query (missing ids are simply
 * absent), their bodies read through src/bodies/ from `bodies`. The query reads only the months
 * of the refs' `created_at` (or of their ids' time, then every month for ids it missed:
 * src/db/request-time.ts `readByRefs`). Throws what the driver or R2 throws.
 */
export async function loadCalls(db: Db, bodies: BodyBucket | null, refs: readonly RequestRef[]): Promise<StoredCall[]> {
  const { created_at: _c, ...callColumns } = requestSummaryColumns;
  const rows = await readByRefs(llmRequests.created_at, refs, (bound, part) =>
    db
      .select({
        ...callColumns,
        ...storedBodyColumns,
        created_at: sql<string>`${llmRequests.created_at}::text`,
        stored_policy: projectPolicies.policy,
        policy_version: projectPolicies.version,
      })
      .from(llmRequests)
      .leftJoin(projectPolicies, eq(projectPolicies.project_id, llmRequests.project_id))
      .where(idsWithin(llmRequests.id, part, bound)),
  );
  return (await readBodies(bodies, rows)).map(({ stored_policy, policy_version, ...call }) => ({
    ...call,
    policy: { policy: policyFromStored(stored_policy), version: policy_version ?? 0 },
  }));
}

/** A cost the scorer computed for the request `id` (with its `created_at` when known, as `RequestRef`). */
export type PricedCall = RequestRef & { cost: Cost };

/**
 * Stores costs computed by the scorer in one statement, with `cost_source` `genai-prices` and the
 * table's version, reading only the calls' months (`readByRefs`). Only rows whose cost is still
 * unknown change, so a cost the caller logged is never overwritten and a redelivered job writes
 * nothing new; each changed row adds its cost to its hour's rollup and leaves the hour's unpriced count.
 */
export async function saveCosts(db: Db, priced: readonly PricedCall[]): Promise<void> {
  await readByRefs(sql`r.created_at`, priced, async (bound, part) => {
    const values = sql.join(
      (part as readonly PricedCall[]).map(({ id, cost }) => sql`(${id}::uuid, ${cost.cost_usd}::numeric, ${cost.price_version}::text)`),
      sql`, `,
    );
    const result = (await db.execute(sql`
      WITH priced AS (
        UPDATE llm_requests AS r
        SET cost_usd = v.cost, cost_source = ${PRICED_SOURCE}, price_version = v.version
        FROM (VALUES ${values}) AS v(id, cost, version)
        WHERE r.id = v.id AND r.cost_usd IS NULL AND ${bound ?? sql`true`}
        RETURNING r.id, r.project_id, r.created_at, r.cost_usd
      ),
      rollup AS (${addCostsToRollup(sql`priced`)})
      SELECT id FROM priced`)) as unknown as { rows: { id: string }[] };
    return result.rows;
  });
}

/** Score rows of one request, ready to insert. */
export interface RequestScores {
  request_id: string;
  project_id: string;
  /** The request's `created_at` text (`StoredCall.created_at`): the scores' `created_at`, so they share the request's partition. */
  created_at: string;
  /** Verdicts under the project's policy, with their versions (src/policy/apply.ts). */
  scores: PolicyScore[];
}

/** The scores of a loaded call as `saveScores` stores them (under the call's id, project and time). */
export function callScores(call: Pick<StoredCall, "id" | "project_id" | "created_at">, scores: PolicyScore[]): RequestScores {
  return { request_id: call.id, project_id: call.project_id, created_at: call.created_at, scores };
}

/**
 * Writes the scores of several requests in one statement (docs/rescoring.md):
 * - the current score of each (request, scorer) made with another scorer or policy version is
 *   marked superseded (kept as history) and the new one inserted as current; every score's
 *   `created_at` is its request's (the hour bucket and the partition key, src/db/schema/scores.ts);
 * - a score whose (request, scorer, scorer_version, policy_version) is already stored inserts
 *   nothing and supersedes nothing (`ON CONFLICT DO NOTHING`: a redelivered job adds nothing);
 * - the score rollups move from the superseded rows to the inserted ones (src/db/rollups.ts),
 *   so they always count the current scores;
 * - a score's id is a UUIDv7 of its request's `created_at` (src/db/request-time.ts), so a read
 *   by score id (a review, an alert delivery) finds its month from the id alone.
 * The UPDATE runs to completion before the INSERT (an init plan reads it), so the partial unique
 * index of current scores sees the old row superseded. Then
 * marks those requests `scored`. The same statement creates the alert deliveries of the rows
 * really inserted (src/db/alerts.ts `insertAlertDeliveries`: one per score and endpoint) and
 * returns their ids, for the caller to enqueue on alert-deliveries.
 */
export async function saveScores(db: Db, batch: readonly RequestScores[]): Promise<string[]> {
  if (batch.length === 0) return [];
  // Every score carries its request's created_at: the statements read only those months.
  const refs = batch.map((r) => ({ id: r.request_id, created_at: r.created_at }));
  const rows = batch.flatMap((r) =>
    r.scores.map(
      (s) =>
        sql`(${requestIdAt(storedTime(r.created_at))}::uuid, ${r.request_id}::uuid, ${r.project_id}::uuid, ${r.created_at}::timestamptz, ${s.scorer_name}, ${s.score_value}::smallint, ${s.score_label}, ${s.rationale}, ${s.scorer_version}, ${s.unsafe_at}::smallint, ${s.policy_version}::int, ${s.decided_by}::text)`,
    ),
  );
  const alerts = (await db.execute(sql`
    WITH v (id, request_id, project_id, created_at, scorer_name, score_value, score_label, rationale, scorer_version, unsafe_at, policy_version, decided_by) AS (
      VALUES ${sql.join(rows, sql`, `)}
    ),
    superseded AS (
      UPDATE safety_scores AS s SET superseded_at = now()
      FROM v
      WHERE s.request_id = v.request_id AND s.created_at = v.created_at AND s.scorer_name = v.scorer_name AND s.superseded_at IS NULL
        AND ${requestsTimeCondition(sql`s.created_at`, refs)}
        AND NOT EXISTS (SELECT 1 FROM safety_scores h WHERE h.request_id = v.request_id AND h.created_at = v.created_at AND h.scorer_name = v.scorer_name
          AND h.scorer_version = v.scorer_version AND h.policy_version = v.policy_version AND ${requestsTimeCondition(sql`h.created_at`, refs)})
      RETURNING s.request_id, s.project_id, s.created_at, s.scorer_name, s.score_value, s.score_label
    ),
    inserted AS (
      INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, scorer_version, unsafe_at, policy_version, decided_by, created_at)
      SELECT v.id, v.request_id, v.project_id, v.scorer_name, v.score_value, v.score_label, v.rationale, v.scorer_version, v.unsafe_at, v.policy_version, v.decided_by,
        v.created_at
      FROM v
      WHERE (SELECT count(*) FROM superseded) >= 0
      ON CONFLICT DO NOTHING
      RETURNING id, request_id, project_id, created_at, scorer_name, score_value, score_label
    ),
    rollup AS (${scoreChangesToRollup(sql`inserted`, sql`superseded`)}),
    alerts AS (${insertAlertDeliveries(sql`inserted`, sql`superseded`)})
    SELECT id FROM alerts`)) as unknown as { rows: { id: string }[] };
  await db
    .update(llmRequests)
    .set({ scoring_state: "scored" })
    .where(idsWithin(llmRequests.id, refs, requestsTimeCondition(llmRequests.created_at, refs)));
  return alerts.rows.map((r) => r.id);
}

/**
 * Claims up to `limit` requests that have waited longer than `olderThanSeconds` for scores
 * (never enqueued, or enqueued and not scored since), oldest first, and stamps them as
 * re-enqueued now so the next sweep leaves them alone for another interval. Returns them oldest
 * first, with their `created_at` (for the scoring jobs). One transaction: the candidates are read
 * and locked (every month's `llm_requests_unscored_idx`, which holds only unscored calls), then
 * updated by id within their own months.
 */
export async function claimStaleRequests(db: Db, olderThanSeconds: number, limit: number): Promise<RequestRef[]> {
  const cutoff = sql`now() - make_interval(secs => ${olderThanSeconds})`;
  return db.transaction(async (tx) => {
    const stale = await tx
      .select({ id: llmRequests.id, created_at: sql<string>`${llmRequests.created_at}::text` })
      .from(llmRequests)
      .where(and(ne(llmRequests.scoring_state, "scored"), or(isNull(llmRequests.enqueued_at), lt(llmRequests.enqueued_at, cutoff))))
      .orderBy(llmRequests.created_at)
      .limit(limit)
      .for("update", { skipLocked: true });
    if (stale.length === 0) return [];
    await tx
      .update(llmRequests)
      .set({ scoring_state: "queued", enqueued_at: sql`now()` })
      .where(idsWithin(llmRequests.id, stale, requestsTimeCondition(llmRequests.created_at, stale)));
    return stale;
  });
}

/**
 * Marks requests as not enqueued (their scoring job could not be sent: after ingest, or the
 * sweep's re-enqueue), so the next sweep takes them; only the requests' months are read.
 */
export async function markNotEnqueued(db: Db, refs: readonly RequestRef[]): Promise<void> {
  await readByRefs(llmRequests.created_at, refs, (bound, part) =>
    db
      .update(llmRequests)
      .set({ scoring_state: "pending", enqueued_at: null })
      .where(idsWithin(llmRequests.id, part, bound))
      .returning({ id: llmRequests.id }),
  );
}
