/**
 * Reads of a project's current safety scores (table `safety_scores`, superseded history
 * excluded): the score list and the per-scorer summary.
 */
import { and, avg, count, eq, getTableColumns, gte, isNull, sql } from "drizzle-orm";
import type { ScoreLabel, ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { inRange, pageWithTotal, type PageParams, type TimeRange } from "./paging";
import { safetyScores } from "./schema";
import { requestCreatedAt } from "./request-time";

/** Filters of the score list. */
export interface ScoreFilters extends TimeRange {
  request_id?: string | undefined;
  scorer_name?: ScorerName | undefined;
  min_score?: number | undefined;
  label?: ScoreLabel | undefined;
}

/**
 * One page of a project's score records with the total. With `request_id`, the request's
 * `created_at` is looked up first (src/db/request-time.ts) and its scores read at that time
 * only, so one month is read (none when the project has no such request).
 */
export async function listScores(db: Db, projectId: string, filters: ScoreFilters, page: PageParams) {
  const at = filters.request_id ? await requestCreatedAt(db, projectId, filters.request_id) : undefined;
  const where = and(
    eq(safetyScores.project_id, projectId),
    isNull(safetyScores.superseded_at),
    filters.request_id ? eq(safetyScores.request_id, filters.request_id) : undefined,
    at === null ? sql`false` : at === undefined ? undefined : sql`${safetyScores.created_at} = ${at}::timestamptz`,
    filters.scorer_name ? eq(safetyScores.scorer_name, filters.scorer_name) : undefined,
    filters.min_score !== undefined ? gte(safetyScores.score_value, filters.min_score) : undefined,
    filters.label ? eq(safetyScores.score_label, filters.label) : undefined,
    ...inRange(safetyScores.created_at, filters),
  );
  return pageWithTotal(db, safetyScores, getTableColumns(safetyScores), where, page);
}

/** Per-scorer counts by label and the mean score over a project's scores in a time range. */
export function summarizeScores(db: Db, projectId: string, range: TimeRange) {
  const labelCount = (label: string) => sql<number>`count(*) FILTER (WHERE ${safetyScores.score_label} = ${label})`.mapWith(Number);
  return db
    .select({
      scorer_name: safetyScores.scorer_name,
      total: count(),
      safe: labelCount("safe"),
      unsafe: labelCount("unsafe"),
      unscored: labelCount("unscored"),
      mean_score: avg(safetyScores.score_value).mapWith((v: string | null) => (v === null ? null : Number(v))),
    })
    .from(safetyScores)
    .where(and(eq(safetyScores.project_id, projectId), isNull(safetyScores.superseded_at), ...inRange(safetyScores.created_at, range)))
    .groupBy(safetyScores.scorer_name)
    .orderBy(safetyScores.scorer_name);
}
