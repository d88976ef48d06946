/**
 * Read queries of the API: requests and scores of one project, paged in list order
 * `created_at DESC, id DESC`, served by the `(project_id, created_at)` indexes.
 */
import { and, avg, count, desc, eq, getTableColumns, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./client";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { ScorerName } from "../scoring/types";
import { llmRequests, safetyScores, type SCORE_LABELS } from "./schema";

type ScoreLabel = (typeof SCORE_LABELS)[number];

/** A page request: `page` from 1, `page_size` records. */
export interface PageParams {
  page: number;
  page_size: number;
}

/** Time range: `start` inclusive, `end` exclusive. */
export interface TimeRange {
  start?: Date | undefined;
  end?: Date | undefined;
}

function inRange(column: typeof llmRequests.created_at | typeof safetyScores.created_at, range: TimeRange): SQL[] {
  const conds: SQL[] = [];
  if (range.start) conds.push(gte(column, range.start));
  if (range.end) conds.push(lt(column, range.end));
  return conds;
}

/**
 * One page of `table`'s rows matching `where`, newest first (`created_at DESC, id DESC`), and
 * the total count, from ONE statement and so one snapshot: under concurrent inserts the page
 * and the total always agree (two statements could see different rows). The count is a
 * subquery, the page a LATERAL subquery left-joined to it, so an empty page still has its total.
 */
async function pageWithTotal<C extends Record<string, PgColumn>>(
  db: Db,
  table: typeof llmRequests | typeof safetyScores,
  columns: C,
  where: SQL | undefined,
  page: PageParams,
) {
  // Both tables have `id` and `created_at`; one static type keeps the builder's types simple.
  const t = table as typeof llmRequests;
  const totals = db.select({ total: count().as("total") }).from(t).where(where).as("totals");
  const items = db
    .select(columns as Record<string, PgColumn>)
    .from(t)
    .$dynamic()
    .where(where)
    .orderBy(desc(t.created_at), desc(t.id))
    .limit(page.page_size)
    .offset((page.page - 1) * page.page_size)
    .as("items");
  // The page's columns as the subquery exposes them (`"items"."id"`, ...).
  const fields = items as unknown as Record<string, PgColumn>;
  const item = Object.fromEntries(Object.keys(columns).map((k) => [k, fields[k]!])) as unknown as C;
  const rows = await db
    .select({ total: totals.total, item })
    .from(totals)
    .leftJoinLateral(items, sql`true`)
    .orderBy(desc(items.created_at as unknown as PgColumn), desc(items.id as unknown as PgColumn));
  return {
    items: rows.flatMap((r) => (r.item === null ? [] : [r.item as unknown as SelectResultFields<C>])),
    total: rows[0]?.total ?? 0,
  };
}

/** Columns of a request in lists (no bodies). */
export const requestSummaryColumns = {
  id: llmRequests.id,
  project_id: llmRequests.project_id,
  model: llmRequests.model,
  provider: llmRequests.provider,
  prompt_tokens: llmRequests.prompt_tokens,
  completion_tokens: llmRequests.completion_tokens,
  cost_usd: llmRequests.cost_usd,
  latency_ms: llmRequests.latency_ms,
  metadata: llmRequests.metadata,
  created_at: llmRequests.created_at,
  scoring_state: llmRequests.scoring_state,
};

/** One page of a project's requests, filtered by model and time range, with the total. */
export async function listRequests(
  db: Db,
  projectId: string,
  filters: TimeRange & { model?: string | undefined },
  page: PageParams,
) {
  const where = and(
    eq(llmRequests.project_id, projectId),
    filters.model ? eq(llmRequests.model, filters.model) : undefined,
    ...inRange(llmRequests.created_at, filters),
  );
  return pageWithTotal(db, llmRequests, requestSummaryColumns, where, page);
}

/** One request with bodies and its scores, or null when the project has no such request. */
export async function getRequest(db: Db, projectId: string, id: string) {
  const [request] = await db
    .select({ ...requestSummaryColumns, request_body: llmRequests.request_body, response_body: llmRequests.response_body })
    .from(llmRequests)
    .where(and(eq(llmRequests.project_id, projectId), eq(llmRequests.id, id)));
  if (!request) return null;
  const scores = await db
    .select()
    .from(safetyScores)
    .where(and(eq(safetyScores.project_id, projectId), eq(safetyScores.request_id, id)))
    .orderBy(safetyScores.scorer_name);
  return { ...request, safety_scores: scores };
}

/** Filters of the score list. */
export interface ScoreFilters extends TimeRange {
  request_id?: string | undefined;
  scorer_name?: ScorerName | undefined;
  min_score?: number | undefined;
  label?: ScoreLabel | undefined;
}

/** One page of a project's score records with the total. */
export async function listScores(db: Db, projectId: string, filters: ScoreFilters, page: PageParams) {
  const where = and(
    eq(safetyScores.project_id, projectId),
    filters.request_id ? eq(safetyScores.request_id, filters.request_id) : undefined,
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
    .where(and(eq(safetyScores.project_id, projectId), ...inRange(safetyScores.created_at, range)))
    .groupBy(safetyScores.scorer_name)
    .orderBy(safetyScores.scorer_name);
}
