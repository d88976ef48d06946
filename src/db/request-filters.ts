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
import { and, eq, exists, gte, inArray, lt, notExists, sql, type SQL } from "drizzle-orm";
import type { REVIEW_VERDICTS, ScoreLabel, ScorerName } from "../enums";
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
}

/** The SQL condition selecting a project's requests that match `f`. */
export function requestConditions(projectId: string, f: RequestFilters): SQL {
  const conds: (SQL | undefined)[] = [eq(llmRequests.project_id, projectId)];
  if (f.start) conds.push(gte(llmRequests.created_at, f.start));
  if (f.end) conds.push(lt(llmRequests.created_at, f.end));
  if (f.model) conds.push(eq(llmRequests.model, f.model));
  if (f.provider) conds.push(eq(llmRequests.provider, f.provider));
  if (f.status === "error") conds.push(sql`${llmRequests.is_error}`);
  if (f.status === "ok") conds.push(sql`NOT ${llmRequests.is_error}`);
  if (f.ids) conds.push(inArray(llmRequests.id, f.ids));
  for (const [scorer, label] of Object.entries(f.labels ?? {})) {
    conds.push(scoreExists(and(eq(safetyScores.scorer_name, scorer as ScorerName), eq(safetyScores.score_label, label))));
  }
  const ofScorer = f.scorer ? eq(safetyScores.scorer_name, f.scorer) : undefined;
  if (f.min_score !== undefined) conds.push(scoreExists(and(ofScorer, gte(safetyScores.score_value, f.min_score))));
  if (f.reviewed) {
    const review = sql`(SELECT 1 FROM ${scoreReviews} WHERE ${scoreReviews.request_id} = ${llmRequests.id}
      ${f.scorer ? sql`AND ${scoreReviews.scorer_name} = ${f.scorer}` : sql``}
      ${f.reviewed === "none" ? sql`` : sql`AND ${scoreReviews.project_id} = ${llmRequests.project_id} AND ${scoreReviews.verdict} = ${f.reviewed}`})`;
    conds.push(f.reviewed === "none" ? notExists(review) : exists(review));
  }
  if (f.q) conds.push(sql`${llmRequests.search_tsv} @@ ${websearchQuery(f.q)}`);
  return and(...conds)!;
}

function scoreExists(cond: SQL | undefined): SQL {
  return exists(
    sql`(SELECT 1 FROM ${safetyScores} WHERE ${safetyScores.request_id} = ${llmRequests.id} AND ${safetyScores.superseded_at} IS NULL AND ${cond})`,
  );
}

/**
 * Keyset condition: rows strictly after (`older`) or before (`newer`) the request `id` in list
 * order `created_at DESC, id DESC`. The anchor's `created_at` is read in SQL (microseconds;
 * a JS Date would round to milliseconds and skip or repeat rows).
 */
export function keyset(projectId: string, id: string, direction: "older" | "newer"): SQL {
  // A row constructor of a scalar subquery (an InitPlan) and a parameter is an index condition
  // of `(project_id, created_at DESC, id DESC)`; a row subquery `(SELECT a, b)` would not be.
  const anchorTime = sql`(SELECT ${llmRequests.created_at} FROM ${llmRequests} WHERE ${llmRequests.project_id} = ${projectId} AND ${llmRequests.id} = ${id})`;
  const op = direction === "older" ? sql.raw("<") : sql.raw(">");
  return sql`(${llmRequests.created_at}, ${llmRequests.id}) ${op} (${anchorTime}, ${id}::uuid)`;
}
