/**
 * Queries of alert webhooks (tables in ./schema/alerts.ts): endpoints per project, the delivery
 * rows the scorer creates with its scores, and what the delivery consumer reads and records.
 */
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "./driver/client";
import { deleteProjectRow, projectRow } from "./project-rows";
import type { AlertEventType, AlertFormat, DeliveryState, ScoreLabel, ScorerName } from "../enums";
import { alertDeliveries, alertEndpoints } from "./schema/alerts";
import { llmRequests, safetyScores } from "./schema";
import { idsWithin, readByRefs, requestsTimeCondition, scoreOfRequest } from "./request-time";

/** An endpoint as stored (with its secret: never answer it except at creation). */
export type AlertEndpoint = typeof alertEndpoints.$inferSelect;
/** A delivery row. */
export type AlertDelivery = typeof alertDeliveries.$inferSelect;

/** What a new endpoint is made of. */
export interface NewEndpoint {
  url: string;
  min_score: number;
  /** Null or absent: every scorer. */
  scorers?: ScorerName[] | null;
  format: AlertFormat;
  secret: string;
}

/** Stores a project's new endpoint; returns the row. */
export async function createEndpoint(db: Db, projectId: string, e: NewEndpoint): Promise<AlertEndpoint> {
  const [row] = await db
    .insert(alertEndpoints)
    .values({ id: uuidv7(), project_id: projectId, url: e.url, min_score: e.min_score, scorers: e.scorers ?? null, format: e.format, secret: e.secret })
    .returning();
  return row!;
}

/** A page of the project's endpoints, oldest first, and their total. */
export async function listEndpoints(db: Db, projectId: string, page: { page: number; page_size: number }) {
  const where = eq(alertEndpoints.project_id, projectId);
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(alertEndpoints)
      .where(where)
      .orderBy(alertEndpoints.created_at, alertEndpoints.id)
      .limit(page.page_size)
      .offset((page.page - 1) * page.page_size),
    db.select({ total: sql<number>`count(*)::int` }).from(alertEndpoints).where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** The project's endpoint `id`, or null (unknown, or another project's). */
export async function getEndpoint(db: Db, projectId: string, id: string): Promise<AlertEndpoint | null> {
  const [row] = await db
    .select()
    .from(alertEndpoints)
    .where(projectRow(alertEndpoints, projectId, id));
  return row ?? null;
}

/** Deletes the project's endpoint `id` and its deliveries; false when there was none. */
export async function deleteEndpoint(db: Db, projectId: string, id: string): Promise<boolean> {
  return deleteProjectRow(db, alertEndpoints, projectId, id);
}

/** A page of an endpoint's deliveries, newest first (`state` narrows, e.g. `dead`). */
export async function listDeliveries(db: Db, endpointId: string, q: { page: number; page_size: number; state?: DeliveryState | undefined }) {
  const where = and(eq(alertDeliveries.endpoint_id, endpointId), q.state ? eq(alertDeliveries.state, q.state) : undefined);
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(alertDeliveries)
      .where(where)
      .orderBy(desc(alertDeliveries.created_at), desc(alertDeliveries.id))
      .limit(q.page_size)
      .offset((q.page - 1) * q.page_size),
    db.select({ total: sql<number>`count(*)::int` }).from(alertDeliveries).where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/**
 * For a `WITH` clause of the statement that inserts scores: inserts one `score.unsafe` delivery
 * per (score, endpoint) for the score rows of CTE `source` (id, request_id, project_id,
 * scorer_name, score_value) that reach an endpoint's `min_score` from a scorer it chose,
 * `ON CONFLICT DO NOTHING` on (score_id, endpoint_id), returning the new deliveries' `id`.
 * Rows that replace a score of CTE `replaced` (when given; request_id, scorer_name: a re-score of history)
 * do not alert: alerts are about live traffic, and re-scoring days of calls must not flood the
 * endpoints. With no endpoint in the project it reads one index (alert_endpoints_project_idx)
 * and adds no statement.
 */
export function insertAlertDeliveries(source: SQL, replaced?: SQL): SQL {
  const firstScores = replaced ? sql`AND NOT EXISTS (SELECT 1 FROM ${replaced} r WHERE r.request_id = s.request_id AND r.scorer_name = s.scorer_name)` : sql``;
  return sql`INSERT INTO alert_deliveries (id, endpoint_id, project_id, score_id, event_type)
    SELECT gen_random_uuid(), e.id, s.project_id, s.id, 'score.unsafe'
    FROM ${source} s JOIN alert_endpoints e ON e.project_id = s.project_id
    WHERE s.score_value >= e.min_score AND (e.scorers IS NULL OR s.scorer_name = ANY(e.scorers)) ${firstScores}
    ON CONFLICT (score_id, endpoint_id) DO NOTHING
    RETURNING id`;
}

/** A delivery with what sending it needs: its endpoint, and its score and request (null for a test event or a deleted score). */
export interface DeliveryToSend {
  id: string;
  project_id: string;
  endpoint_id: string;
  event_type: AlertEventType;
  state: DeliveryState;
  attempts: number;
  created_at: Date;
  url: string;
  secret: string;
  format: AlertFormat;
  score: {
    request_id: string;
    scorer_name: ScorerName;
    score_value: number | null;
    score_label: ScoreLabel;
    rationale: string;
    created_at: Date;
    model: string;
  } | null;
}

/**
 * Loads deliveries by id (ids of deleted endpoints are absent) with their endpoints, then their
 * scores and the scores' requests in the months the score ids point to (a score's id carries its
 * request's time; every month for the scores it missed, src/db/request-time.ts `readByRefs`).
 * Two queries (a third when a score is not in the month its id points to).
 */
export async function loadDeliveries(db: Db, ids: readonly string[]): Promise<DeliveryToSend[]> {
  if (ids.length === 0) return [];
  const deliveries = await db
    .select({
      id: alertDeliveries.id,
      project_id: alertDeliveries.project_id,
      endpoint_id: alertDeliveries.endpoint_id,
      event_type: alertDeliveries.event_type,
      state: alertDeliveries.state,
      attempts: alertDeliveries.attempts,
      created_at: alertDeliveries.created_at,
      url: alertEndpoints.url,
      secret: alertEndpoints.secret,
      format: alertEndpoints.format,
      score_id: alertDeliveries.score_id,
    })
    .from(alertDeliveries)
    .innerJoin(alertEndpoints, eq(alertEndpoints.id, alertDeliveries.endpoint_id))
    .where(inArray(alertDeliveries.id, [...ids]));
  const scoreIds = [...new Set(deliveries.flatMap((d) => (d.score_id ? [d.score_id] : [])))];
  const scores = await readByRefs(
    safetyScores.created_at,
    scoreIds.map((id) => ({ id })),
    (bound, part) =>
      db
        .select({
          id: safetyScores.id,
          request_id: safetyScores.request_id,
          scorer_name: safetyScores.scorer_name,
          score_value: safetyScores.score_value,
          score_label: safetyScores.score_label,
          rationale: safetyScores.rationale,
          created_at: safetyScores.created_at,
          model: llmRequests.model,
        })
        .from(safetyScores)
        .leftJoin(llmRequests, and(scoreOfRequest(), bound && requestsTimeCondition(llmRequests.created_at, part)))
        .where(idsWithin(safetyScores.id, part, bound)),
  );
  const byId = new Map(scores.map((s) => [s.id, s]));
  return deliveries.map(({ score_id, ...d }) => {
    const s = score_id ? byId.get(score_id) : undefined;
    return {
      ...d,
      score: s
        ? {
            request_id: s.request_id,
            scorer_name: s.scorer_name,
            score_value: s.score_value,
            score_label: s.score_label,
            rationale: s.rationale ?? "",
            created_at: s.created_at,
            model: s.model ?? "",
          }
        : null,
    };
  });
}

/** The result of one attempt, as stored on the delivery row. */
export interface AttemptRecord {
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  /** Seconds from now to the next attempt (state `retrying`). */
  retry_in_seconds?: number;
}

/** Records an attempt on delivery `id`. */
export async function recordAttempt(db: Db, id: string, r: AttemptRecord): Promise<void> {
  await db
    .update(alertDeliveries)
    .set({
      state: r.state,
      attempts: r.attempts,
      last_status: r.last_status,
      last_error: r.last_error,
      last_attempt_at: sql`now()`,
      next_attempt_at: r.retry_in_seconds === undefined ? null : sql`now() + make_interval(secs => ${r.retry_in_seconds})`,
    })
    .where(eq(alertDeliveries.id, id));
}

/** Creates a test delivery row for endpoint `endpointId` (already tried: `r`); returns it. */
export async function insertTestDelivery(db: Db, endpoint: { id: string; project_id: string }, id: string, r: AttemptRecord): Promise<AlertDelivery> {
  const [row] = await db
    .insert(alertDeliveries)
    .values({
      id,
      endpoint_id: endpoint.id,
      project_id: endpoint.project_id,
      score_id: null,
      event_type: "webhook.test",
      state: r.state,
      attempts: r.attempts,
      last_status: r.last_status,
      last_error: r.last_error,
      last_attempt_at: sql`now()`,
    })
    .returning();
  return row!;
}

/**
 * Claims up to `limit` deliveries whose message seems lost: `pending` or `retrying` and due for
 * more than `olderThanSeconds` (an enqueue that failed after the scores were stored, a message
 * dropped by the queue), stamping them due now so the next sweep leaves them alone for another
 * interval. Returns their ids.
 */
export async function claimStaleDeliveries(db: Db, olderThanSeconds: number, limit: number): Promise<string[]> {
  const result = (await db.execute(sql`
    UPDATE alert_deliveries SET next_attempt_at = now()
    WHERE id IN (
      SELECT id FROM alert_deliveries
      WHERE state IN ('pending', 'retrying') AND coalesce(next_attempt_at, created_at) < now() - make_interval(secs => ${olderThanSeconds})
      ORDER BY created_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
    )
    RETURNING id`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}
