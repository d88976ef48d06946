/**
 * Time-bucketed aggregates of the dashboard overview. Both statements are index-only scans of
 * covering indexes (migrations/0002): `llm_requests (project_id, created_at DESC, id DESC,
 * latency_ms, cost_usd, is_error)` and `safety_scores (project_id, created_at, scorer_name, score_label)`.
 * Buckets are UTC hours or days (`date_trunc(unit, created_at, 'UTC')`).
 */
import { and, eq, gte, lt, sql } from "drizzle-orm";
import type { ScorerName } from "../scoring/types";
import type { Db } from "./client";
import { llmRequests, safetyScores } from "./schema";

/** Bucket width of the overview series. */
export type Bucket = "hour" | "day";

/** Aggregates of the requests created in one bucket. */
export interface RequestBucket {
  bucket: Date;
  requests: number;
  errors: number;
  /** Latency percentiles (ms, continuous: `percentile_cont`), null never: a bucket has >= 1 row. */
  p50_latency_ms: number;
  p95_latency_ms: number;
  /** Sum of `cost_usd`, US dollars. */
  cost_usd: number;
}

/** Per bucket and scorer: scores written, and how many were `unsafe` / `unscored`. */
export interface ScoreBucket {
  bucket: Date;
  scorer_name: ScorerName;
  scores: number;
  unsafe: number;
  unscored: number;
}

const truncated = (unit: Bucket, column: typeof llmRequests.created_at | typeof safetyScores.created_at) =>
  sql<Date>`date_trunc(${sql.raw(`'${unit}'`)}, ${column}, 'UTC')`.mapWith((v: string | Date) => new Date(v));

/** Request aggregates per bucket of `[start, end)`, oldest first; empty buckets are absent. */
export async function requestBuckets(db: Db, projectId: string, unit: Bucket, start: Date, end: Date): Promise<RequestBucket[]> {
  const bucket = truncated(unit, llmRequests.created_at);
  return db
    .select({
      bucket,
      requests: sql<number>`count(*)`.mapWith(Number),
      errors: sql<number>`count(*) FILTER (WHERE ${llmRequests.is_error})`.mapWith(Number),
      p50_latency_ms: sql<number>`percentile_cont(0.5) WITHIN GROUP (ORDER BY ${llmRequests.latency_ms})`.mapWith(Number),
      p95_latency_ms: sql<number>`percentile_cont(0.95) WITHIN GROUP (ORDER BY ${llmRequests.latency_ms})`.mapWith(Number),
      cost_usd: sql<number>`coalesce(sum(${llmRequests.cost_usd}), 0)`.mapWith(Number),
    })
    .from(llmRequests)
    .where(and(eq(llmRequests.project_id, projectId), gte(llmRequests.created_at, start), lt(llmRequests.created_at, end)))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

/** Score counts per bucket (of the score's `created_at`) and scorer in `[start, end)`. */
export async function scoreBuckets(db: Db, projectId: string, unit: Bucket, start: Date, end: Date): Promise<ScoreBucket[]> {
  const bucket = truncated(unit, safetyScores.created_at);
  return db
    .select({
      bucket,
      scorer_name: safetyScores.scorer_name,
      scores: sql<number>`count(*)`.mapWith(Number),
      unsafe: sql<number>`count(*) FILTER (WHERE ${safetyScores.score_label} = 'unsafe')`.mapWith(Number),
      unscored: sql<number>`count(*) FILTER (WHERE ${safetyScores.score_label} = 'unscored')`.mapWith(Number),
    })
    .from(safetyScores)
    .where(and(eq(safetyScores.project_id, projectId), gte(safetyScores.created_at, start), lt(safetyScores.created_at, end)))
    .groupBy(sql`1`, safetyScores.scorer_name)
    .orderBy(sql`1`, safetyScores.scorer_name);
}
