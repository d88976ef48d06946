/**
 * Time-bucketed aggregates of the dashboard overview, read from the hourly rollups
 * (src/db/rollups.ts) for every whole UTC hour of the range, and from the raw rows only for the
 * partial hours at its edges (a range that does not start or end on an hour): exact for any
 * range. The edges are index-only range scans of `llm_requests_project_created_idx`
 * (project_id, created_at DESC, id DESC, latency_ms, cost_usd, is_error) and
 * `safety_scores_project_current_idx` (project_id, created_at DESC, id DESC, scorer_name, score_label).
 * Buckets are UTC hours or days (`date_trunc(unit, hour, 'UTC')`); a day is the sum of its hours.
 */
import { type SQL, sql } from "drizzle-orm";
import type { ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { histogramQuantile } from "./rollups";
import { iso } from "../util";

/** Bucket width of the overview series. */
export type Bucket = "hour" | "day";

/** Aggregates of the requests created in one bucket. */
export interface RequestBucket {
  bucket: Date;
  requests: number;
  errors: number;
  /**
   * Latency percentiles (ms) interpolated in the bucket's latency histogram
   * (`histogramQuantile`: within one histogram bucket, <= 9.05% of the value); never null: a
   * bucket has >= 1 request.
   */
  p50_latency_ms: number;
  p95_latency_ms: number;
  /** Sum of the known `cost_usd`, US dollars. */
  cost_usd: number;
  /** Requests whose cost is unknown (`cost_usd` null), not in `cost_usd`. */
  unpriced: number;
}

/** Per bucket and scorer: scores written, and how many were `unsafe` / `unscored`. */
export interface ScoreBucket {
  bucket: Date;
  scorer_name: ScorerName;
  scores: number;
  unsafe: number;
  unscored: number;
}

const HOUR_MS = 3_600_000;

/**
 * Splits [start, end) into the whole UTC hours [hours[0], hours[1]) (null when there is none)
 * and the partial edges before and after them, which are read from raw rows.
 */
export function splitRange(start: Date, end: Date): { hours: [Date, Date] | null; edges: [Date, Date][] } {
  const h0 = Math.ceil(start.getTime() / HOUR_MS) * HOUR_MS;
  const h1 = Math.floor(end.getTime() / HOUR_MS) * HOUR_MS;
  if (h0 >= h1) return { hours: null, edges: start < end ? [[start, end]] : [] };
  const edges: [Date, Date][] = [];
  if (start.getTime() < h0) edges.push([start, new Date(h0)]);
  if (h1 < end.getTime()) edges.push([new Date(h1), end]);
  return { hours: [new Date(h0), new Date(h1)], edges };
}

const unitSql = (unit: Bucket) => sql.raw(`'${unit === "day" ? "day" : "hour"}'`);

/** `parts` of a range: rollup rows of its whole hours, `edge(a, b)` for each partial edge. */
function partsOf(rollup: (h0: string, h1: string) => SQL, edge: (a: string, b: string) => SQL, start: Date, end: Date): SQL {
  const { hours, edges } = splitRange(start, end);
  const parts = [...(hours ? [rollup(iso(hours[0]), iso(hours[1]))] : []), ...edges.map(([a, b]) => edge(iso(a), iso(b)))];
  return parts.length ? sql.join(parts, sql` UNION ALL `) : rollup(iso(start), iso(start));
}

/** Request aggregates per bucket of `[start, end)`, oldest first; empty buckets are absent. */
export async function requestBuckets(db: Db, projectId: string, unit: Bucket, start: Date, end: Date): Promise<RequestBucket[]> {
  const parts = partsOf(
    (h0, h1) => sql`SELECT hour AS t, requests, errors, cost_usd, unpriced, latency_hist AS hist FROM request_rollups
      WHERE project_id = ${projectId} AND hour >= ${h0}::timestamptz AND hour < ${h1}::timestamptz`,
    (a, b) => sql`SELECT date_trunc('hour', created_at, 'UTC') AS t, count(*)::int AS requests, (count(*) FILTER (WHERE is_error))::int AS errors,
        coalesce(sum(cost_usd), 0) AS cost_usd, (count(*) FILTER (WHERE cost_usd IS NULL))::int AS unpriced, sightline_latency_histogram(array_agg(latency_ms)) AS hist
      FROM llm_requests WHERE project_id = ${projectId} AND created_at >= ${a}::timestamptz AND created_at < ${b}::timestamptz GROUP BY 1`,
    start,
    end,
  );
  const result = (await db.execute(sql`
    WITH parts AS (${parts})
    SELECT date_trunc(${unitSql(unit)}, t, 'UTC') AS bucket, sum(requests)::int AS requests, sum(errors)::int AS errors,
      sum(cost_usd)::float8 AS cost_usd, sum(unpriced)::int AS unpriced, sightline_hist_sum(hist) AS hist
    FROM parts GROUP BY 1 ORDER BY 1`)) as unknown as {
    rows: { bucket: Date | string; requests: number; errors: number; cost_usd: number; unpriced: number; hist: number[] }[];
  };
  return result.rows
    .filter((r) => r.requests > 0)
    .map((r) => ({
      bucket: new Date(r.bucket),
      requests: r.requests,
      errors: r.errors,
      p50_latency_ms: histogramQuantile(r.hist, 0.5)!,
      p95_latency_ms: histogramQuantile(r.hist, 0.95)!,
      cost_usd: Number(r.cost_usd),
      unpriced: r.unpriced,
    }));
}

/** Score counts per bucket (of the score's `created_at`) and scorer in `[start, end)`. */
export async function scoreBuckets(db: Db, projectId: string, unit: Bucket, start: Date, end: Date): Promise<ScoreBucket[]> {
  const parts = partsOf(
    (h0, h1) => sql`SELECT hour AS t, scorer_name, scores, unsafe, unscored FROM score_rollups
      WHERE project_id = ${projectId} AND hour >= ${h0}::timestamptz AND hour < ${h1}::timestamptz`,
    (a, b) => sql`SELECT date_trunc('hour', created_at, 'UTC') AS t, scorer_name, count(*)::int AS scores,
        (count(*) FILTER (WHERE score_label = 'unsafe'))::int AS unsafe, (count(*) FILTER (WHERE score_label = 'unscored'))::int AS unscored
      FROM safety_scores WHERE project_id = ${projectId} AND superseded_at IS NULL AND created_at >= ${a}::timestamptz AND created_at < ${b}::timestamptz GROUP BY 1, 2`,
    start,
    end,
  );
  const result = (await db.execute(sql`
    WITH parts AS (${parts})
    SELECT date_trunc(${unitSql(unit)}, t, 'UTC') AS bucket, scorer_name, sum(scores)::int AS scores, sum(unsafe)::int AS unsafe,
      sum(unscored)::int AS unscored
    FROM parts GROUP BY 1, 2 ORDER BY 1, 2`)) as unknown as {
    rows: { bucket: Date | string; scorer_name: ScorerName; scores: number; unsafe: number; unscored: number }[];
  };
  return result.rows.filter((r) => r.scores > 0).map((r) => ({ ...r, bucket: new Date(r.bucket) }));
}
