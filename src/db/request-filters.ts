/**
 * The filters of the request list, count, export and detail neighbours, as one SQL condition,
 * so every view of "the current filter" selects the same rows. Each filter is served by an
 * index (migrations/0002_dashboard_filters_search_reviews.sql):
 * - model, provider: `(project_id, model|provider, created_at DESC, id DESC)`;
 * - status=error: the partial index on failed calls; status=ok: the main list index;
 * - per-scorer label, min_score: an EXISTS probe of `safety_scores (request_id, scorer_name)`
 *   (the unique key) for each candidate row, walked newest first;
 * - reviewed: an EXISTS probe of `score_reviews (project_id, verdict, request_id)`; `none`: a
 *   NOT EXISTS probe of its primary key `(request_id, scorer_name)`;
 * - q: the GIN index on `search_tsv` (full-text, `simple` config, every word must occur).
 */
import { and, eq, exists, gte, inArray, notExists, sql, type SQL } from "drizzle-orm";
import type { REVIEW_VERDICTS, ScoreLabel, ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { requestCreatedAt, timeConditions, type TimeBound } from "./request-time";
import { llmRequests, safetyScores, scoreReviews } from "./schema";
import { websearchQuery } from "./search-query";

type Verdict = (typeof REVIEW_VERDICTS)[number];

/** Request filters. Time range: `start` inclusive, `end` exclusive. */
export interface RequestFilters {
  start?: Date | undefined;
  end?: Date | undefined;
  model?: string | undefined;
  provider?: string | undefined;
  /** `error`: `metadata.status` is "error" (`is_error`); `ok`: every other request. */
  status?: "ok" | "error" | undefined;
  /** Per scorer: the request must have a score of that scorer with that label. */
  labels?: Partial<Record<ScorerName, ScoreLabel>> | undefined;
  /** Narrows `min_score` and `reviewed` to one scorer (any scorer when absent). */
  scorer?: ScorerName | undefined;
  /** Some score (of `scorer`, if given) is >= this Likert value (1-5). */
  min_score?: number | undefined;
  /**
   * The call has a review (of `scorer`, if given) with this verdict; `none`: it has no review (of
   * `scorer`; of any scorer when absent). Reviews are kept across re-scores (by request and scorer).
   */
  reviewed?: Verdict | "none" | undefined;
  /** Full-text search in the string values of the request and response bodies. */
  q?: string | undefined;
  /** Only these request ids (live mode re-asks rows whose scores were pending). */
  ids?: string[] | undefined;
  /** Keyset: only rows after this request in list order (older ones; `withAnchors` sets it). */
  older?: Anchor | undefined;
  /** Keyset: only rows before this request in list order (newer ones; `withAnchors` sets it). */
  newer?: Anchor | undefined;
}

/** A keyset anchor: a listed request's id and its `created_at` as PostgreSQL's text (microseconds). */
export interface Anchor {
  id: string;
  created_at: string;
}

/**
 * The time bound of `f` (its range and its keyset anchors' times): constants on `created_at` that
 * hold for the matching requests and, as a score carries its request's `created_at`, their
 * scores, so the planner prunes the partitions of both tables (docs/storage.md).
 */
export function requestBound(f: RequestFilters): TimeBound {
  return { start: f.start, end: f.end, atMost: f.older?.created_at, atLeast: f.newer?.created_at };
}

/**
 * `f` with the keyset anchors named by request ids (`older`: the cursor, rows after it; `newer`:
 * rows before it) resolved to their `created_at`; null when an id names no request of the project.
 */
export async function withAnchors(
  db: Db,
  projectId: string,
  f: RequestFilters,
  ids: { older?: string | undefined; newer?: string | undefined },
): Promise<RequestFilters | null> {
  const anchor = async (id: string | undefined): Promise<Anchor | null | undefined> => {
    if (id === undefined) return undefined;
    const created_at = await requestCreatedAt(db, projectId, id);
    return created_at === null ? null : { id, created_at };
  };
  const [older, newer] = await Promise.all([anchor(ids.older), anchor(ids.newer)]);
  if (older === null || newer === null) return null;
  return { ...f, older, newer };
}

/**
 * How the score filters (per-scorer label, `min_score`) reach `safety_scores`:
 * - `"semi-join"` (default): PostgreSQL may turn each EXISTS into a semi-join, which reads every
 *   matching score of the range once: right for a count or an export, which read every row.
 * - `"probe"`: each stays a per-row probe of the current score's unique key, evaluated while the
 *   list index is walked newest first, so a page stops after enough matches. The planner
 *   underestimates how many requests match a label (it has no statistics across the two tables)
 *   and picked a hash semi-join over all of a scorer's unsafe scores for a 51-row page: 970 ms
 *   p50 at 1M calls in bench:scale, 330 ms at 200k; probes: 19-30 ms at 200k. `OFFSET 0` inside
 *   the EXISTS is what keeps it a probe: PostgreSQL does not pull up an EXISTS sublink whose
 *   query has an OFFSET (`simplify_EXISTS_query`, src/backend/optimizer/plan/subselect.c).
 */
export type ScoreFilterPlan = "semi-join" | "probe";

/** The SQL condition selecting a project's requests that match `f` (`plan`: see `ScoreFilterPlan`). */
export function requestConditions(projectId: string, f: RequestFilters, plan: ScoreFilterPlan = "semi-join"): SQL {
  const bound = requestBound(f);
  const conds: (SQL | undefined)[] = [eq(llmRequests.project_id, projectId), ...timeConditions(llmRequests.created_at, bound)];
  if (f.older) conds.push(keyset(f.older, "older"));
  if (f.newer) conds.push(keyset(f.newer, "newer"));
  if (f.model) conds.push(eq(llmRequests.model, f.model));
  if (f.provider) conds.push(eq(llmRequests.provider, f.provider));
  if (f.status === "error") conds.push(sql`${llmRequests.is_error}`);
  if (f.status === "ok") conds.push(sql`NOT ${llmRequests.is_error}`);
  if (f.ids) conds.push(inArray(llmRequests.id, f.ids));
  for (const [scorer, label] of Object.entries(f.labels ?? {})) {
    conds.push(scoreExists(and(eq(safetyScores.scorer_name, scorer as ScorerName), eq(safetyScores.score_label, label)), bound, plan));
  }
  const ofScorer = f.scorer ? eq(safetyScores.scorer_name, f.scorer) : undefined;
  if (f.min_score !== undefined) conds.push(scoreExists(and(ofScorer, gte(safetyScores.score_value, f.min_score)), bound, plan));
  if (f.reviewed) {
    const review = sql`(SELECT 1 FROM ${scoreReviews} WHERE ${scoreReviews.request_id} = ${llmRequests.id}
      ${f.scorer ? sql`AND ${scoreReviews.scorer_name} = ${f.scorer}` : sql``}
      ${f.reviewed === "none" ? sql`` : sql`AND ${scoreReviews.project_id} = ${llmRequests.project_id} AND ${scoreReviews.verdict} = ${f.reviewed}`})`;
    conds.push(f.reviewed === "none" ? notExists(review) : exists(review));
  }
  if (f.q) conds.push(sql`${llmRequests.search_tsv} @@ ${websearchQuery(f.q)}`);
  return and(...conds)!;
}

/** A current score of the outer request matching `cond`, in the partitions `bound` leaves, joined as `plan` says. */
function scoreExists(cond: SQL | undefined, bound: TimeBound, plan: ScoreFilterPlan): SQL {
  return exists(
    sql`(SELECT 1 FROM ${safetyScores} WHERE ${safetyScores.request_id} = ${llmRequests.id} AND ${safetyScores.created_at} = ${llmRequests.created_at}
      AND ${safetyScores.superseded_at} IS NULL AND ${and(cond, ...timeConditions(safetyScores.created_at, bound))}${plan === "probe" ? sql` OFFSET 0` : sql``})`,
  );
}

/**
 * Keyset condition: rows strictly after (`older`) or before (`newer`) the anchor in list order
 * `created_at DESC, id DESC`. The anchor's `created_at` is PostgreSQL's text (microseconds; a JS
 * Date would round to milliseconds and skip or repeat rows). A row constructor of parameters is
 * an index condition of `(project_id, created_at DESC, id DESC)`; the bare bound on `created_at`
 * that `requestBound` adds beside it is what prunes partitions.
 */
export function keyset(anchor: Anchor, direction: "older" | "newer"): SQL {
  const op = direction === "older" ? sql.raw("<") : sql.raw(">");
  return sql`(${llmRequests.created_at}, ${llmRequests.id}) ${op} (${anchor.created_at}::timestamptz, ${anchor.id}::uuid)`;
}
