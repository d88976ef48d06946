/**
 * Reads of a project's requests (table `llm_requests`): the page-numbered and the keyset list
 * with score chips, the count, the detail with its scores and their history, and the detail's
 * neighbours, all under the request list's filters (./request-filters.ts) and in list order
 * `created_at DESC, id DESC`, served by the `(project_id, created_at)` indexes. Every statement
 * keeps a constant `created_at` bound where it has one (the range, a keyset anchor's time, the
 * detail's own time), so PostgreSQL reads only those months' partitions (./request-time.ts).
 */
import { and, count, eq, inArray, sql } from "drizzle-orm";
import type { ReviewVerdict, ScoreLabel, ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { projectRow } from "./project-rows";
import { newestFirst, oldestFirst, pageWithTotal, type PageParams } from "./paging";
import { requestBound, requestConditions, withAnchors, type RequestFilters } from "./request-filters";
import { type RequestRef, requestCreatedAt, requestsTimeCondition, timeCondition, timeConditions, type TimeBound } from "./request-time";
import { changedSinceReview, reviewChanged } from "./reviews";
import { llmRequests, safetyScores, scoreReviews } from "./schema";
import { searchIds } from "./text-search";
import { storedBodyColumns } from "../bodies/columns";
import { readBodies } from "../bodies/read";
import type { BodyBucket } from "../bodies/bucket";

/**
 * A request's scores in lists: scorer, value and label, plus the review verdict of that call and
 * scorer if any (kept across re-scores) and whether the score changed since it was reviewed.
 */
export interface ScoreChip {
  scorer_name: ScorerName;
  score_value: number | null;
  score_label: ScoreLabel;
  verdict: ReviewVerdict | null;
  review_changed: boolean;
}

/** Join condition of a score `s` and the review `r` of its request and scorer. */
export const reviewOfScore = sql.raw("r.request_id = s.request_id AND r.scorer_name = s.scorer_name");

/**
 * The request's scores as a JSON array (empty while scoring is pending), one probe of the
 * `(request_id, scorer_name, created_at)` unique index per row, in the partitions `bound` (the
 * list's time bound, which holds for its requests' scores too, and the months of `refs` when the
 * rows are known by id: `requestsTimeCondition`) leaves. The outer columns are
 * written qualified: in a select list drizzle renders `llmRequests.id` as a bare "id", which
 * would mean `s.id` here.
 */
export function scoreChips(bound: TimeBound, refs?: readonly RequestRef[]) {
  const outer = (column: string) => sql`${llmRequests}.${sql.identifier(column)}`;
  return sql<ScoreChip[]>`(SELECT coalesce(json_agg(json_build_object(
    'scorer_name', s.scorer_name, 'score_value', s.score_value, 'score_label', s.score_label, 'verdict', r.verdict,
    'review_changed', r.request_id IS NOT NULL AND ${reviewChanged("s", "r")})
    ORDER BY s.scorer_name), '[]'::json)
  FROM ${safetyScores} s LEFT JOIN ${scoreReviews} r ON ${reviewOfScore}
  WHERE s.request_id = ${outer("id")} AND s.created_at = ${outer("created_at")} AND s.superseded_at IS NULL
    AND ${timeCondition(sql`s.created_at`, bound)} AND ${(refs && requestsTimeCondition(sql`s.created_at`, refs)) ?? sql`true`})`;
}

/** Columns of a request in lists (no bodies; `preview` is a short generated column, src/db/schema/requests.ts). */
export const requestSummaryColumns = {
  id: llmRequests.id,
  project_id: llmRequests.project_id,
  model: llmRequests.model,
  provider: llmRequests.provider,
  prompt_tokens: llmRequests.prompt_tokens,
  completion_tokens: llmRequests.completion_tokens,
  cost_usd: llmRequests.cost_usd,
  cost_source: llmRequests.cost_source,
  price_version: llmRequests.price_version,
  cache_read_tokens: llmRequests.cache_read_tokens,
  cache_write_tokens: llmRequests.cache_write_tokens,
  latency_ms: llmRequests.latency_ms,
  metadata: llmRequests.metadata,
  created_at: llmRequests.created_at,
  scoring_state: llmRequests.scoring_state,
  is_error: llmRequests.is_error,
  preview: llmRequests.preview,
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
  const f = await withAnchors(db, projectId, filters, { older: k.cursor, newer: k.after });
  if (!f) return { items: [], next_cursor: null, unknownAnchor: true };
  const bound = requestBound(f);
  // A text search picks its page of ids first (./text-search.ts), then reads those rows in their months.
  const found = f.q ? await searchIds(db, projectId, { ...f, q: f.q }, k.limit) : undefined;
  const ids = found?.map((r) => r.id);
  const rows =
    ids?.length === 0
      ? []
      : await db
          .select({ ...requestSummaryColumns, scores: scoreChips(bound, found) })
          .from(llmRequests)
          .where(
            ids
              ? and(
                  eq(llmRequests.project_id, projectId),
                  inArray(llmRequests.id, ids),
                  requestsTimeCondition(llmRequests.created_at, found!),
                  ...timeConditions(llmRequests.created_at, bound),
                )
              : requestConditions(projectId, f, "probe"),
          )
          .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
          .limit(k.limit + 1);
  const items = rows.slice(0, k.limit);
  return { items, next_cursor: rows.length > k.limit ? items[items.length - 1]!.id : null, unknownAnchor: false };
}

/** Number of a project's requests matching `filters` (and newer than `after`, if given; 0 when `after` names no request). */
export async function countRequests(db: Db, projectId: string, filters: RequestFilters, after?: string) {
  const f = await withAnchors(db, projectId, filters, { newer: after });
  if (!f) return 0;
  const [row] = await db.select({ total: count() }).from(llmRequests).where(requestConditions(projectId, f));
  return row?.total ?? 0;
}

/**
 * Ids of the requests next to `id` in list order among those matching `filters`: `newer_id`
 * (previous row in the list) and `older_id` (next row), null at either end. Two index probes
 * after the anchor's time is known.
 */
export async function neighbours(db: Db, projectId: string, id: string, filters: RequestFilters) {
  const created_at = await requestCreatedAt(db, projectId, id);
  if (created_at === null) return { newer_id: null, older_id: null };
  const anchor = { id, created_at };
  const [[newer], [older]] = await Promise.all([
    db
      .select({ id: llmRequests.id })
      .from(llmRequests)
      .where(requestConditions(projectId, { ...filters, newer: anchor }, "probe"))
      .orderBy(...oldestFirst(llmRequests.created_at, llmRequests.id))
      .limit(1),
    db
      .select({ id: llmRequests.id })
      .from(llmRequests)
      .where(requestConditions(projectId, { ...filters, older: anchor }, "probe"))
      .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
      .limit(1),
  ]);
  return { newer_id: newer?.id ?? null, older_id: older?.id ?? null };
}

/** A score's review as the detail shows it: the verdict, who and when, the score reviewed and whether it changed since. */
export interface ScoreReview {
  verdict: (typeof scoreReviews.$inferSelect)["verdict"];
  reviewer: string;
  reviewed_at: string;
  score_value: number | null;
  score_label: ScoreLabel;
  scorer_version: string;
  policy_version: number;
  /** The current score's value or label differs from the reviewed one ("score changed since review"). */
  changed: boolean;
}

/**
 * One request with bodies (read through src/bodies/ from `bodies`), its current scores (each with
 * the review of its request and scorer, if any, kept across re-scores) and the scores re-scoring
 * replaced (`score_history`, oldest first per scorer; docs/rescoring.md), or null when the project
 * has no such request.
 */
export async function getRequest(db: Db, bodies: BodyBucket | null, projectId: string, id: string) {
  // The request's time first (one partition's probe, ./request-time.ts): its row and its scores
  // are then read in that month's partitions only.
  const createdAt = await requestCreatedAt(db, projectId, id);
  if (createdAt === null) return null;
  const at = sql`${createdAt}::timestamptz`;
  const [[stored], rows, reviews] = await Promise.all([
    db
      .select({ ...requestSummaryColumns, ...storedBodyColumns })
      .from(llmRequests)
      .where(and(projectRow(llmRequests, projectId, id), eq(llmRequests.created_at, at))),
    db
      .select()
      .from(safetyScores)
      .where(and(eq(safetyScores.project_id, projectId), eq(safetyScores.request_id, id), eq(safetyScores.created_at, at)))
      .orderBy(safetyScores.scorer_name, safetyScores.scored_at),
    db
      .select()
      .from(scoreReviews)
      .where(and(eq(scoreReviews.project_id, projectId), eq(scoreReviews.request_id, id))),
  ]);
  if (!stored) return null;
  const request = (await readBodies(bodies, [stored]))[0]!;
  const reviewOf = new Map(reviews.map((r) => [r.scorer_name, r]));
  const scores = rows
    .filter((score) => score.superseded_at === null)
    .map((score) => {
      const r = reviewOf.get(score.scorer_name);
      const review: ScoreReview | null = r
        ? {
            verdict: r.verdict,
            reviewer: r.reviewer,
            reviewed_at: r.reviewed_at.toISOString(),
            score_value: r.score_value,
            score_label: r.score_label,
            scorer_version: r.scorer_version,
            policy_version: r.policy_version,
            changed: changedSinceReview(score, r),
          }
        : null;
      return { ...score, review };
    });
  const history = rows.flatMap((score) => (score.superseded_at === null ? [] : [{ ...score, superseded_at: score.superseded_at }]));
  return { ...request, safety_scores: scores, score_history: history };
}
