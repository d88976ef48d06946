/**
 * Hourly rollups of requests and scores per project (tables `request_rollups` and
 * `score_rollups`, migrations/0004): the overview reads them for whole hours instead of
 * aggregating every row (30 days of 1M requests and 6M scores took 5.5-6 s,
 * bench/results/dashboard-scale.md).
 *
 * Exact, not sampled: each statement that writes the source rows also upserts the rollup rows
 * it changes, in the same statement (so in the same transaction), aggregated to one row per
 * (project, hour[, scorer]) inside the statement (`ON CONFLICT DO UPDATE` may touch a row once
 * per statement) and fed in key order (so two statements lock rollup rows in the same order and
 * cannot deadlock). The writers: `ingestWithQuota` (src/db/ingest.ts), `ingestBatch`
 * (src/db/ingest-batch.ts), `saveScores` and `saveCosts` (src/db/request-scoring.ts). Only rows really
 * written count (the `RETURNING` of `ON CONFLICT DO NOTHING` inserts), so a redelivered record or
 * a re-swept scoring job adds nothing. `SELECT sightline_rebuild_rollups()` recomputes both
 * tables from the rows (the migration's backfill; after a bulk load).
 *
 * Latency percentiles come from a fixed histogram per hour (`LATENCY_BOUNDS_MS`).
 */
import { type SQL, sql } from "drizzle-orm";

/**
 * Bucket bounds of the latency histogram, milliseconds: 2^(k/8) for k = 0..176 rounded to whole
 * milliseconds, duplicates removed (159 bounds from 1 ms to 4,194,304 ms, about 70 minutes).
 * These are the bucket boundaries of Prometheus native histograms, schema 3, and of
 * OpenTelemetry exponential histograms, scale 3 (base 2^(2^-3) = 1.0905), at the integer
 * resolution of `latency_ms`: a bucket is at most 9.05% wide relative to its lower bound, which
 * bounds the error of a percentile read from it. The database holds the same constant
 * (`sightline_latency_bounds()`, checked equal by test/api/rollups.test.ts).
 */
export const LATENCY_BOUNDS_MS: readonly number[] = (() => {
  const bounds: number[] = [];
  for (let k = 0; k <= 8 * 22; k++) {
    const v = Math.round(2 ** (k / 8));
    if (bounds[bounds.length - 1] !== v) bounds.push(v);
  }
  return bounds;
})();

/**
 * Entries of a latency histogram (`latency_hist`): entry i (0-based here, 1-based in SQL) counts
 * latencies v with `width_bucket(v, LATENCY_BOUNDS_MS) = i`: entry 0 is v < 1 ms, entry i in
 * 1..158 is [bounds[i-1], bounds[i]), entry 159 is v >= 4,194,304 ms.
 */
export const LATENCY_HIST_LENGTH = LATENCY_BOUNDS_MS.length + 1;

/** Histogram entry of one latency (ms), as PostgreSQL's `width_bucket(v, bounds)` computes it. */
export function latencyBucket(ms: number): number {
  let lo = 0;
  let hi = LATENCY_BOUNDS_MS.length;
  // Number of bounds <= ms (binary search).
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (LATENCY_BOUNDS_MS[mid]! <= ms) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The `p`-quantile (0..1) of the latencies a histogram counts, in ms; null for an empty one.
 * As `percentile_cont`: linear interpolation between the order statistics at ranks floor and
 * ceil of p * (n - 1). An order statistic is estimated inside its histogram bucket, taking the
 * bucket's values as evenly spread over its whole milliseconds [lower, upper - 1] (so a 1 ms wide
 * bucket gives the exact value). Error: at most the width of one bucket (<= 9.05% of the value
 * above 12 ms). Entry 0 (v < 1 ms) reads as 0 ms, the open top bucket as its lower bound.
 */
export function histogramQuantile(hist: readonly number[], p: number): number | null {
  const n = hist.reduce((a, b) => a + b, 0);
  if (n === 0) return null;
  const rank = p * (n - 1);
  const lo = Math.floor(rank);
  const a = orderStatistic(hist, lo);
  return lo === rank ? a : a + (rank - lo) * (orderStatistic(hist, lo + 1) - a);
}

/** Estimate of the k-th smallest (0-based) latency a histogram counts; k < its total. */
function orderStatistic(hist: readonly number[], k: number): number {
  let before = 0;
  for (let i = 0; i < hist.length; i++) {
    const count = hist[i]!;
    if (k >= before + count) {
      before += count;
      continue;
    }
    if (i === 0) return 0;
    const lower = LATENCY_BOUNDS_MS[i - 1]!;
    if (i >= LATENCY_BOUNDS_MS.length) return lower;
    return lower + ((k - before + 0.5) / count) * (LATENCY_BOUNDS_MS[i]! - 1 - lower);
  }
  return LATENCY_BOUNDS_MS[LATENCY_BOUNDS_MS.length - 1]!;
}

/**
 * `INSERT ... ON CONFLICT DO UPDATE` adding the requests of CTE `source` (columns project_id,
 * created_at, latency_ms, cost_usd (null: unpriced), is_error, prompt_tokens, completion_tokens: e.g. the
 * `RETURNING` of an insert into llm_requests) to their hours' rollup rows. For a `WITH` clause.
 */
export function addRequestsToRollup(source: SQL): SQL {
  return sql`INSERT INTO request_rollups AS r (project_id, hour, requests, errors, cost_usd, unpriced, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
    SELECT project_id, date_trunc('hour', created_at, 'UTC'), count(*), count(*) FILTER (WHERE is_error), coalesce(sum(cost_usd), 0),
      count(*) FILTER (WHERE cost_usd IS NULL), coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0), coalesce(sum(latency_ms), 0),
      sightline_latency_histogram(array_agg(latency_ms))
    FROM ${source} GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (project_id, hour) DO UPDATE SET
      requests = r.requests + excluded.requests, errors = r.errors + excluded.errors, cost_usd = r.cost_usd + excluded.cost_usd,
      unpriced = r.unpriced + excluded.unpriced,
      prompt_tokens = r.prompt_tokens + excluded.prompt_tokens, completion_tokens = r.completion_tokens + excluded.completion_tokens,
      latency_ms_sum = r.latency_ms_sum + excluded.latency_ms_sum, latency_hist = sightline_hist_add(r.latency_hist, excluded.latency_hist)`;
}

/**
 * Upsert adding newly priced requests to the rollup: CTE `source` has project_id, created_at and
 * `cost_usd` (US dollars) per request whose cost was unknown until now, so each adds its cost and
 * leaves the hour's `unpriced` count. For a `WITH` clause.
 */
export function addCostsToRollup(source: SQL): SQL {
  return sql`INSERT INTO request_rollups AS r (project_id, hour, requests, errors, cost_usd, unpriced, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
    SELECT project_id, date_trunc('hour', created_at, 'UTC'), 0, 0, sum(cost_usd), -count(*), 0, 0, 0, array_fill(0, ARRAY[${LATENCY_HIST_LENGTH}::int])
    FROM ${source} GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (project_id, hour) DO UPDATE SET cost_usd = r.cost_usd + excluded.cost_usd, unpriced = r.unpriced + excluded.unpriced`;
}

/**
 * Upsert moving the rollups from the score rows of `removed` (superseded by a re-score,
 * docs/rescoring.md) to those of `added`: both CTEs have the columns (project_id, created_at,
 * scorer_name, score_value, score_label), e.g. the `RETURNING` of an insert into safety_scores.
 * One upsert row per (project, hour, scorer), so a re-score in the same hour updates its row once.
 */
export function scoreChangesToRollup(added: SQL, removed: SQL): SQL {
  return scoreDeltasToRollup(sql`(SELECT project_id, created_at, scorer_name, score_value, score_label, 1 AS n FROM ${added}
    UNION ALL SELECT project_id, created_at, scorer_name, score_value, score_label, -1 AS n FROM ${removed}) AS d`);
}

/** Upsert of score rows with a count `n` each (+1 added, -1 removed) into their rollup rows. */
function scoreDeltasToRollup(source: SQL): SQL {
  return sql`INSERT INTO score_rollups AS r (project_id, hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5)
    SELECT project_id, date_trunc('hour', created_at, 'UTC'), scorer_name, sum(n), coalesce(sum(n) FILTER (WHERE score_label = 'unsafe'), 0),
      coalesce(sum(n) FILTER (WHERE score_label = 'unscored'), 0), coalesce(sum(n) FILTER (WHERE score_value = 1), 0), coalesce(sum(n) FILTER (WHERE score_value = 2), 0),
      coalesce(sum(n) FILTER (WHERE score_value = 3), 0), coalesce(sum(n) FILTER (WHERE score_value = 4), 0), coalesce(sum(n) FILTER (WHERE score_value = 5), 0)
    FROM ${source} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (project_id, hour, scorer_name) DO UPDATE SET
      scores = r.scores + excluded.scores, unsafe = r.unsafe + excluded.unsafe, unscored = r.unscored + excluded.unscored,
      value_1 = r.value_1 + excluded.value_1, value_2 = r.value_2 + excluded.value_2, value_3 = r.value_3 + excluded.value_3,
      value_4 = r.value_4 + excluded.value_4, value_5 = r.value_5 + excluded.value_5`;
}
