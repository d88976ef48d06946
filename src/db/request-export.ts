/**
 * The export's read of a project's requests (table `llm_requests` with the current scores of
 * `safety_scores` and their reviews): one page of requests with bodies and score chips per
 * statement, for src/export/stream.ts.
 */
import { sql } from "drizzle-orm";
import type { ScoreLabel, ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { newestFirst } from "./paging";
import { requestBound, requestConditions, withAnchors, type RequestFilters } from "./request-filters";
import { timeCondition } from "./request-time";
import { requestSummaryColumns, reviewOfScore, type ScoreChip } from "./requests";
import { reviewChanged } from "./reviews";
import { llmRequests, safetyScores, scoreReviews } from "./schema";
import { storedBodyColumns } from "../bodies/columns";
import { readBodies } from "../bodies/read";
import type { BodyBucket } from "../bodies/bucket";

/** A score chip as the export's query sends it: `[scorer_name, score_value, score_label, verdict, review_changed]`. */
type ChipTuple = [ScorerName, number | null, ScoreLabel, ScoreChip["verdict"], boolean];

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
  cost_usd: string | null,
  cost_source: (typeof llmRequests.$inferSelect)["cost_source"],
  price_version: string | null,
  cache_read_tokens: number | null,
  cache_write_tokens: number | null,
  preview: string | null,
  latency_ms: number,
  scoring_state: (typeof llmRequests.$inferSelect)["scoring_state"],
  chips: ChipTuple[] | null,
  metadata: Record<string, unknown>,
  request_body: unknown,
  response_body: unknown,
  body_key: string | null,
  request_body_offset: number | null,
  request_body_length: number | null,
  response_body_offset: number | null,
  response_body_length: number | null,
  pii_free_version: number | null,
];

/**
 * `exportRows` after `cursor` (a request id, its time looked up: `withAnchors`) with every body
 * read from `bodies` (`readBodies`): a page as the detail gives each row. The export itself pages
 * by anchor (src/export/stream.ts); tests and bench:dashboard read pages this way.
 */
export async function exportPage(db: Db, bodies: BodyBucket | null, projectId: string, filters: RequestFilters, cursor: string | undefined, limit: number) {
  const f = await withAnchors(db, projectId, filters, { older: cursor });
  if (!f) return [];
  return readBodies(bodies, await exportRows(db, projectId, f, limit));
}

/**
 * One page of exported requests, newest first after `f.older` (a keyset anchor: the previous
 * page's last row, its `created_at` as PostgreSQL's text, so no lookup of its time): the list
 * columns, the bodies stored inline with the pointers of those in R2, the score chips (sorted by scorer name in the database's collation, as the list's). ONE
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
 * to a Date, `cost_usd` (numeric text) to a number (null, an unknown cost, stays null: an empty
 * CSV field, JSON null); keys in the detail's column order, and each row's `anchor`. The bodies in R2 are read
 * by the caller (`readBodies`, src/bodies/read.ts), so the export reads them for one page while
 * the database reads the next page's rows.
 */
export async function exportRows(db: Db, projectId: string, f: RequestFilters, limit: number) {
  const page = db
    .select({ ...requestSummaryColumns, ...storedBodyColumns, pii_free_version: llmRequests.pii_free_version })
    .from(llmRequests)
    .where(requestConditions(projectId, f))
    .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
    .limit(limit);
  const result = (await db.execute(sql`WITH page AS MATERIALIZED (${page}),
    chips AS (
      SELECT s.request_id, json_agg(json_build_array(s.scorer_name, s.score_value, s.score_label, r.verdict,
        r.request_id IS NOT NULL AND ${reviewChanged("s", "r")}) ORDER BY s.scorer_name) AS chips
      FROM ${safetyScores} s LEFT JOIN ${scoreReviews} r ON ${reviewOfScore}
      WHERE s.request_id = ANY(ARRAY(SELECT id FROM page)) AND s.superseded_at IS NULL
        AND ${timeCondition(sql`s.created_at`, requestBound(f))}
      GROUP BY s.request_id)
    SELECT json_agg(json_build_array(p.id, p.created_at::text, p.model, p.provider, p.is_error, p.prompt_tokens, p.completion_tokens, p.cost_usd::text,
      p.cost_source, p.price_version, p.cache_read_tokens, p.cache_write_tokens, p.preview, p.latency_ms, p.scoring_state, c.chips, p.metadata, p.request_body, p.response_body,
      p.body_key, p.request_body_offset, p.request_body_length, p.response_body_offset, p.response_body_length, p.pii_free_version)
      ORDER BY ${sql.join(newestFirst(sql`p.created_at`, sql`p.id`), sql`, `)}) AS rows
    FROM page p LEFT JOIN chips c ON c.request_id = p.id`)) as unknown as { rows: { rows: ExportTuple[] | null }[] };
  const rows = (result.rows[0]?.rows ?? []).map((r) => ({
    id: r[0],
    model: r[2],
    provider: r[3],
    prompt_tokens: r[5],
    completion_tokens: r[6],
    cost_usd: r[7] === null ? null : Number(r[7]),
    cost_source: r[8],
    price_version: r[9],
    cache_read_tokens: r[10],
    cache_write_tokens: r[11],
    latency_ms: r[13],
    metadata: r[16],
    created_at: new Date(r[1]),
    anchor: { id: r[0], created_at: r[1] },
    scoring_state: r[14],
    is_error: r[4],
    preview: r[12],
    request_body: r[17],
    response_body: r[18],
    body_key: r[19],
    request_body_offset: r[20],
    request_body_length: r[21],
    response_body_offset: r[22],
    response_body_length: r[23],
    pii_free_version: r[24],
    scores: (r[15] ?? []).map(
      ([scorer_name, score_value, score_label, verdict, review_changed]): ScoreChip => ({ scorer_name, score_value, score_label, verdict, review_changed }),
    ),
  }));
  return rows;
}
