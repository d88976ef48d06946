/**
 * Read queries of the API: requests and scores of one project, paged in list order
 * `created_at DESC, id DESC`, served by the `(project_id, created_at)` indexes.
 */
import { and, avg, count, eq, inArray, getTableColumns, gte, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { Db } from "./driver/client";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { ScorerName } from "../scoring/types";
import { keyset, requestConditions, type RequestFilters } from "./request-filters";
import { searchIds } from "./text-search";
import { llmRequests, safetyScores, scoreReviews, type SCORE_LABELS } from "./schema/tables";

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

/**
 * List order `created_at DESC, id DESC` spelled as the indexes are built: drizzle-kit writes
 * `.desc()` index columns as `DESC NULLS LAST`, while a bare `ORDER BY x DESC` means NULLS
 * FIRST, and PostgreSQL then cannot read the order from the index (it sorts every matching row,
 * even though the columns are NOT NULL). `oldestFirst` is the same index read backward.
 */
const newestFirst = (created: SQL | PgColumn, id: SQL | PgColumn) => [sql`${created} DESC NULLS LAST`, sql`${id} DESC NULLS LAST`];
const oldestFirst = (created: SQL | PgColumn, id: SQL | PgColumn) => [sql`${created} ASC NULLS FIRST`, sql`${id} ASC NULLS FIRST`];

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
  const totals = db
    .select({ total: count().as("total") })
    .from(t)
    .where(where)
    .as("totals");
  const items = db
    .select(columns as Record<string, PgColumn>)
    .from(t)
    .$dynamic()
    .where(where)
    .orderBy(...newestFirst(t.created_at, t.id))
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
    .orderBy(...newestFirst(items.created_at as unknown as PgColumn, items.id as unknown as PgColumn));
  return {
    items: rows.flatMap((r) => (r.item === null ? [] : [r.item as unknown as SelectResultFields<C>])),
    total: rows[0]?.total ?? 0,
  };
}

/** A request's scores in lists: scorer, value and label, plus the review verdict if any. */
export interface ScoreChip {
  scorer_name: ScorerName;
  score_value: number | null;
  score_label: ScoreLabel;
  verdict: "false_positive" | "confirmed" | null;
}

/**
 * The request's scores as a JSON array (empty while scoring is pending), one probe of the
 * `(request_id, scorer_name)` unique index per row. The outer id is written qualified: in a
 * select list drizzle renders `llmRequests.id` as a bare "id", which would mean `s.id` here.
 */
const scoreChips = sql<ScoreChip[]>`(SELECT coalesce(json_agg(json_build_object(
    'scorer_name', s.scorer_name, 'score_value', s.score_value, 'score_label', s.score_label, 'verdict', r.verdict)
    ORDER BY s.scorer_name), '[]'::json)
  FROM ${safetyScores} s LEFT JOIN ${scoreReviews} r ON r.score_id = s.id
  WHERE s.request_id = ${llmRequests}.${sql.identifier("id")} AND s.superseded_at IS NULL)`;

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
  is_error: llmRequests.is_error,
};

/** Page-numbered list (`page`, `page_size`) of a project's requests matching `filters`, with the total. */
export async function listRequests(db: Db, projectId: string, filters: RequestFilters, page: PageParams) {
  return pageWithTotal(db, llmRequests, requestSummaryColumns, requestConditions(projectId, filters), page);
}

/** Keyset position of a list page: rows older than `cursor`, or newer than `after` (ids of listed rows). */
export interface Keyset {
  cursor?: string | undefined;
  after?: string | undefined;
  limit: number;
}

/**
 * Up to `limit` requests matching `filters`, newest first, after the keyset position, each
 * with its score chips. `next_cursor` is the last row's id when more rows may follow (one row
 * beyond `limit` is read to know). `unknownAnchor` is true when `cursor`/`after` names no
 * request of the project (the caller answers 422).
 */
export async function listRequestsKeyset(db: Db, projectId: string, filters: RequestFilters, k: Keyset) {
  const where = and(
    requestConditions(projectId, filters),
    k.cursor ? keyset(projectId, k.cursor, "older") : undefined,
    k.after ? keyset(projectId, k.after, "newer") : undefined,
  );
  // A text search picks its page of ids first (./text-search.ts), then reads those rows.
  const ids = filters.q ? await searchIds(db, projectId, { ...filters, q: filters.q }, k) : undefined;
  const rows =
    ids?.length === 0
      ? []
      : await db
          .select({ ...requestSummaryColumns, scores: scoreChips })
          .from(llmRequests)
          .where(ids ? and(eq(llmRequests.project_id, projectId), inArray(llmRequests.id, ids)) : where)
          .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
          .limit(k.limit + 1);
  const items = rows.slice(0, k.limit);
  const anchor = k.cursor ?? k.after;
  const unknownAnchor = rows.length === 0 && anchor !== undefined && !(await requestExists(db, projectId, anchor));
  return { items, next_cursor: rows.length > k.limit ? items[items.length - 1]!.id : null, unknownAnchor };
}

/** Whether the project has a request with this id. */
export async function requestExists(db: Db, projectId: string, id: string): Promise<boolean> {
  const [row] = await db
    .select({ id: llmRequests.id })
    .from(llmRequests)
    .where(and(eq(llmRequests.project_id, projectId), eq(llmRequests.id, id)));
  return row !== undefined;
}

/** Number of a project's requests matching `filters` (and newer than `after`, if given). */
export async function countRequests(db: Db, projectId: string, filters: RequestFilters, after?: string) {
  const [row] = await db
    .select({ total: count() })
    .from(llmRequests)
    .where(and(requestConditions(projectId, filters), after ? keyset(projectId, after, "newer") : undefined));
  return row?.total ?? 0;
}

/**
 * Ids of the requests next to `id` in list order among those matching `filters`: `newer_id`
 * (previous row in the list) and `older_id` (next row), null at either end. Two index probes.
 */
export async function neighbours(db: Db, projectId: string, id: string, filters: RequestFilters) {
  const base = requestConditions(projectId, filters);
  const [[newer], [older]] = await Promise.all([
    db
      .select({ id: llmRequests.id })
      .from(llmRequests)
      .where(and(base, keyset(projectId, id, "newer")))
      .orderBy(...oldestFirst(llmRequests.created_at, llmRequests.id))
      .limit(1),
    db
      .select({ id: llmRequests.id })
      .from(llmRequests)
      .where(and(base, keyset(projectId, id, "older")))
      .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
      .limit(1),
  ]);
  return { newer_id: newer?.id ?? null, older_id: older?.id ?? null };
}

/**
 * One request with bodies, its current scores (each with its review, if any) and the scores
 * re-scoring replaced (`score_history`, oldest first per scorer; docs/rescoring.md), or null
 * when the project has no such request.
 */
export async function getRequest(db: Db, projectId: string, id: string) {
  const [request] = await db
    .select({ ...requestSummaryColumns, request_body: llmRequests.request_body, response_body: llmRequests.response_body })
    .from(llmRequests)
    .where(and(eq(llmRequests.project_id, projectId), eq(llmRequests.id, id)));
  if (!request) return null;
  const rows = await db
    .select({ score: safetyScores, review: scoreReviews })
    .from(safetyScores)
    .leftJoin(scoreReviews, eq(scoreReviews.score_id, safetyScores.id))
    .where(and(eq(safetyScores.project_id, projectId), eq(safetyScores.request_id, id)))
    .orderBy(safetyScores.scorer_name, safetyScores.scored_at);
  const scores = rows
    .filter(({ score }) => score.superseded_at === null)
    .map(({ score, review }) => ({
      ...score,
      review: review ? { verdict: review.verdict, reviewer: review.reviewer, reviewed_at: review.reviewed_at.toISOString() } : null,
    }));
  const history = rows.flatMap(({ score }) => (score.superseded_at === null ? [] : [{ ...score, superseded_at: score.superseded_at }]));
  return { ...request, safety_scores: scores, score_history: history };
}

/** A score chip as the export's query sends it: `[scorer_name, score_value, score_label, verdict]`. */
type ChipTuple = [ScorerName, number | null, ScoreLabel, ScoreChip["verdict"]];

/**
 * An exported request as the export's query sends it: one JSON array per request, in this
 * order. `created_at` and `cost_usd` are the columns' text forms (the same text the driver would
 * read), `chips` null when the request has no scores.
 */
type ExportTuple = [
  id: string,
  created_at: string,
  model: string,
  provider: string,
  is_error: boolean,
  prompt_tokens: number,
  completion_tokens: number,
  cost_usd: string,
  latency_ms: number,
  scoring_state: (typeof llmRequests.$inferSelect)["scoring_state"],
  chips: ChipTuple[] | null,
  metadata: Record<string, unknown>,
  request_body: unknown,
  response_body: unknown,
];

/**
 * One page of exported requests, newest first after `cursor`: the list columns, both bodies and
 * the score chips (sorted by scorer name in the database's collation, as the list's). ONE
 * statement, ONE value: the page (a MATERIALIZED CTE, one range scan of `(project_id, created_at
 * DESC, id DESC)`), the scores of all its requests in one probe of the `(request_id,
 * scorer_name)` unique index (`= ANY(ARRAY(SELECT id FROM page))`) aggregated per request, and
 * the page as one JSON array of `ExportTuple`s in list order.
 *
 * Why (bench:dashboard, 1M requests, 100,000 exported, 1,000-row pages, CPU of workerd): the
 * page and a separate `= ANY(ids)` query sent 7,000 protocol rows of 5-15 fields per page, and
 * the driver's per-row and per-field work (message parsing, a UTF-8 decode and a type parser per
 * field, a row object) was most of the worker's CPU: 4.4-4.6 s; one JSON column per row 2.0-2.4
 * s; one value per page 1.8-2.1 s (one decode, one native `JSON.parse`). PostgreSQL's share
 * grew from 1.3 to 1.5-1.7 s. A correlated per-row `json_agg` subquery (the list's `scoreChips`)
 * costs 22-25 ms a page in PostgreSQL against about 15 (1,000 subplan runs).
 *
 * Memory: the driver holds a page at once, as it held its rows before (bodies of up to
 * LOG_MAX_BYTES each; a page of large bodies is the bound to watch, not the row count).
 *
 * Values are converted as drizzle's select converted them before: `created_at` (timestamptz text)
 * to a Date, `cost_usd` (numeric text) to a number; keys in the detail's column order.
 */
export async function exportPage(db: Db, projectId: string, filters: RequestFilters, cursor: string | undefined, limit: number) {
  const page = db
    .select({ ...requestSummaryColumns, request_body: llmRequests.request_body, response_body: llmRequests.response_body })
    .from(llmRequests)
    .where(and(requestConditions(projectId, filters), cursor ? keyset(projectId, cursor, "older") : undefined))
    .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
    .limit(limit);
  const result = (await db.execute(sql`WITH page AS MATERIALIZED (${page}),
    chips AS (
      SELECT s.request_id, json_agg(json_build_array(s.scorer_name, s.score_value, s.score_label, r.verdict) ORDER BY s.scorer_name) AS chips
      FROM ${safetyScores} s LEFT JOIN ${scoreReviews} r ON r.score_id = s.id
      WHERE s.request_id = ANY(ARRAY(SELECT id FROM page)) AND s.superseded_at IS NULL
      GROUP BY s.request_id)
    SELECT json_agg(json_build_array(p.id, p.created_at::text, p.model, p.provider, p.is_error, p.prompt_tokens, p.completion_tokens, p.cost_usd::text,
      p.latency_ms, p.scoring_state, c.chips, p.metadata, p.request_body, p.response_body)
      ORDER BY ${sql.join(newestFirst(sql`p.created_at`, sql`p.id`), sql`, `)}) AS rows
    FROM page p LEFT JOIN chips c ON c.request_id = p.id`)) as unknown as { rows: { rows: ExportTuple[] | null }[] };
  return (result.rows[0]?.rows ?? []).map((r) => ({
    id: r[0],
    model: r[2],
    provider: r[3],
    prompt_tokens: r[5],
    completion_tokens: r[6],
    cost_usd: Number(r[7]),
    latency_ms: r[8],
    metadata: r[11],
    created_at: new Date(r[1]),
    scoring_state: r[9],
    is_error: r[4],
    request_body: r[12],
    response_body: r[13],
    scores: (r[10] ?? []).map(([scorer_name, score_value, score_label, verdict]): ScoreChip => ({ scorer_name, score_value, score_label, verdict })),
  }));
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
    isNull(safetyScores.superseded_at),
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
    .where(and(eq(safetyScores.project_id, projectId), isNull(safetyScores.superseded_at), ...inRange(safetyScores.created_at, range)))
    .groupBy(safetyScores.scorer_name)
    .orderBy(safetyScores.scorer_name);
}
