/**
 * The reviewed-calls export's read (GET /api/reviews/export, src/reviews/dataset.ts): pages of a
 * project's requests that match the request list's filters (./request-filters.ts) and carry at
 * least one review (of `scorer`, when the filter names one), newest first, each with its bodies,
 * its reviews and its current scores.
 */
import { and, eq, exists, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "./driver/client";
import { newestFirst } from "./paging";
import { requestBound, requestConditions, withAnchors, type RequestFilters } from "./request-filters";
import { requestsTimeCondition, timeConditions } from "./request-time";
import { llmRequests, safetyScores, scoreReviews } from "./schema";
import { storedBodyColumns } from "../bodies/columns";
import { readBodies } from "../bodies/read";
import type { BodyBucket } from "../bodies/bucket";

/** One reviewed call of an export page. */
export interface ReviewedCall {
  id: string;
  project_id: string;
  created_at: Date;
  model: string;
  provider: string;
  request_body: unknown;
  response_body: unknown;
  reviews: (typeof scoreReviews.$inferSelect)[];
  /** The current scores (`superseded_at` null). */
  scores: (typeof safetyScores.$inferSelect)[];
}

/**
 * Up to `limit` reviewed calls of `projectId` matching `filters`, older than the request
 * `cursor` (from the start when undefined), newest first. Three statements: the page (served by
 * the list's indexes, each row probing `score_reviews`' primary key), then its reviews and its
 * current scores by request id.
 */
export async function reviewedPage(
  db: Db,
  bodies: BodyBucket | null,
  projectId: string,
  filters: RequestFilters,
  cursor: string | undefined,
  limit: number,
): Promise<ReviewedCall[]> {
  const reviewed = exists(
    sql`(SELECT 1 FROM ${scoreReviews} WHERE ${scoreReviews.request_id} = ${llmRequests.id}
      ${filters.scorer ? sql`AND ${scoreReviews.scorer_name} = ${filters.scorer}` : sql``})`,
  );
  const f = await withAnchors(db, projectId, filters, { older: cursor });
  if (!f) return [];
  const stored = await db
    .select({
      id: llmRequests.id,
      project_id: llmRequests.project_id,
      created_at: llmRequests.created_at,
      /** The exact `created_at` (microseconds), bounding the read of the page's scores to their months. */
      stored_at: sql<string>`${llmRequests.created_at}::text`,
      model: llmRequests.model,
      provider: llmRequests.provider,
      ...storedBodyColumns,
    })
    .from(llmRequests)
    .where(and(requestConditions(projectId, f), reviewed))
    .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
    .limit(limit);
  if (stored.length === 0) return [];
  const rows = (await readBodies(bodies, stored)).map(({ stored_at: _s, ...r }) => r);
  const ids = rows.map((r) => r.id);
  const scoresBound = requestsTimeCondition(
    safetyScores.created_at,
    stored.map((r) => ({ id: r.id, created_at: r.stored_at })),
  );
  const [reviews, scores] = await Promise.all([
    db
      .select()
      .from(scoreReviews)
      .where(and(eq(scoreReviews.project_id, projectId), inArray(scoreReviews.request_id, ids))),
    db
      .select()
      .from(safetyScores)
      .where(
        and(
          inArray(safetyScores.request_id, ids),
          isNull(safetyScores.superseded_at),
          scoresBound,
          ...timeConditions(safetyScores.created_at, requestBound(f)),
        ),
      ),
  ]);
  const byRequest = <T extends { request_id: string }>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const x of list) m.set(x.request_id, [...(m.get(x.request_id) ?? []), x]);
    return m;
  };
  const reviewsOf = byRequest(reviews);
  const scoresOf = byRequest(scores);
  return rows.map((r) => ({ ...r, reviews: reviewsOf.get(r.id) ?? [], scores: scoresOf.get(r.id) ?? [] }));
}
