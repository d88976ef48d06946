/**
 * Queries of the scoring pipeline: load a batch of requests, write their scores idempotently,
 * and find requests still waiting for scores (for the sweep).
 */
import { and, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { PRICED_SOURCE } from "../pricing/fill-costs";
import type { NamedScore } from "../scoring/registry";
import type { ScorableCall } from "../scoring/types";
import type { Db } from "./client";
import { requestSummaryColumns } from "./queries";
import { insertAlertDeliveries } from "./alerts";
import { addCostsToRollup, addScoresToRollup } from "./rollups";
import { llmRequests, type SCORING_STATES } from "./schema";

type ScoringState = (typeof SCORING_STATES)[number];

/**
 * A stored request as the scorers need it, with its scoring state: `scored` means its six
 * score rows are stored (saveScores writes them before it sets the state).
 */
export type StoredCall = ScorableCall & { id: string; project_id: string; scoring_state: ScoringState };

/** Loads the requests with these ids in one query (missing ids are simply absent). */
export async function loadCalls(db: Db, ids: readonly string[]): Promise<StoredCall[]> {
  if (ids.length === 0) return [];
  const { created_at: _c, ...callColumns } = requestSummaryColumns;
  return db
    .select({ ...callColumns, request_body: llmRequests.request_body, response_body: llmRequests.response_body })
    .from(llmRequests)
    .where(inArray(llmRequests.id, [...ids]));
}

/**
 * Stores costs computed by the scorer (request id -> US dollars) in one statement, marking
 * `metadata.cost_source` as priced. Only rows still at cost 0 change, so a cost the caller
 * logged is never overwritten and a redelivered job writes nothing new.
 */
export async function saveCosts(db: Db, costs: ReadonlyMap<string, number>): Promise<void> {
  if (costs.size === 0) return;
  const values = sql.join(
    [...costs].map(([id, cost]) => sql`(${id}::uuid, ${cost}::numeric)`),
    sql`, `,
  );
  // Rows change from cost 0, so each one adds its new cost to its hour's rollup.
  await db.execute(sql`
    WITH priced AS (
      UPDATE llm_requests AS r
      SET cost_usd = v.cost, metadata = r.metadata || jsonb_build_object('cost_source', ${PRICED_SOURCE}::text)
      FROM (VALUES ${values}) AS v(id, cost)
      WHERE r.id = v.id AND r.cost_usd = 0
      RETURNING r.project_id, r.created_at, r.cost_usd AS cost_delta
    )
    ${addCostsToRollup(sql`priced`)}`);
}

/** Score rows of one request, ready to insert. */
export interface RequestScores {
  request_id: string;
  project_id: string;
  scores: NamedScore[];
}

/**
 * Writes the scores of several requests in one multi-row insert with
 * `ON CONFLICT (request_id, scorer_name) DO NOTHING` (a redelivered job adds nothing), adding
 * the rows really inserted to their hours' score rollups in the same statement
 * (src/db/rollups.ts: a score row is never replaced, so a re-scored request counts once), then
 * marks those requests `scored`. The same statement creates the alert deliveries of the rows
 * really inserted (src/db/alerts.ts `insertAlertDeliveries`: one per score and endpoint) and
 * returns their ids, for the caller to enqueue on alert-deliveries.
 */
export async function saveScores(db: Db, batch: readonly RequestScores[]): Promise<string[]> {
  if (batch.length === 0) return [];
  const rows = batch.flatMap((r) =>
    r.scores.map(
      (s) =>
        sql`(${uuidv7()}::uuid, ${r.request_id}::uuid, ${r.project_id}::uuid, ${s.scorer_name}, ${s.score_value}::smallint, ${s.score_label}, ${s.rationale})`,
    ),
  );
  const alerts = (await db.execute(sql`
    WITH inserted AS (
      INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale)
      VALUES ${sql.join(rows, sql`, `)}
      ON CONFLICT (request_id, scorer_name) DO NOTHING
      RETURNING id, request_id, project_id, created_at, scorer_name, score_value, score_label
    ),
    rollup AS (${addScoresToRollup(sql`inserted`)}),
    alerts AS (${insertAlertDeliveries(sql`inserted`)})
    SELECT id FROM alerts`)) as unknown as { rows: { id: string }[] };
  await db
    .update(llmRequests)
    .set({ scoring_state: "scored" })
    .where(
      inArray(
        llmRequests.id,
        batch.map((r) => r.request_id),
      ),
    );
  return alerts.rows.map((r) => r.id);
}

/**
 * Claims up to `limit` requests that have waited longer than `olderThanSeconds` for scores
 * (never enqueued, or enqueued and not scored since), oldest first, and stamps them as
 * re-enqueued now so the next sweep leaves them alone for another interval. Returns their jobs
 * oldest first.
 */
export async function claimStaleRequests(db: Db, olderThanSeconds: number, limit: number): Promise<Array<{ request_id: string; project_id: string }>> {
  const cutoff = sql`now() - make_interval(secs => ${olderThanSeconds})`;
  const stale = db
    .select({ id: llmRequests.id })
    .from(llmRequests)
    .where(and(ne(llmRequests.scoring_state, "scored"), or(isNull(llmRequests.enqueued_at), lt(llmRequests.enqueued_at, cutoff))))
    .orderBy(llmRequests.created_at)
    .limit(limit)
    .for("update", { skipLocked: true });
  const claimed = await db
    .update(llmRequests)
    .set({ scoring_state: "queued", enqueued_at: sql`now()` })
    .where(inArray(llmRequests.id, stale))
    .returning({ request_id: llmRequests.id, project_id: llmRequests.project_id, created_at: llmRequests.created_at });
  // RETURNING has no order: hand the jobs out oldest first, as they were claimed.
  claimed.sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
  return claimed.map(({ request_id, project_id }) => ({ request_id, project_id }));
}

/** Marks requests as not enqueued (their re-enqueue failed), so the next sweep takes them. */
export async function releaseClaim(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(llmRequests)
    .set({ scoring_state: "pending", enqueued_at: null })
    .where(inArray(llmRequests.id, [...ids]));
}
