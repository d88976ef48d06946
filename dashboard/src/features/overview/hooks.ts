/**
 * The project's time series (GET /api/projects/:id/stats/timeseries, hourly UTC buckets from
 * the database's rollups; no rows reach the browser) and their regrouping into the browser's
 * local days, so that every axis is in the user's time zone.
 */
import { useQuery } from "@tanstack/react-query";
import type { ScorerName, Timeseries } from "../../../server/contract";
import { api, routeQuery } from "../../lib/api";

/** One hourly bucket of the API's series. */
export type Point = Timeseries["points"][number];

/** A bucket as the charts draw it: start (epoch ms) and its sums. Latencies of a day: p50 the median hour's, p95 the slowest hour's. */
export interface Bucket {
  t: number;
  requests: number;
  errors: number;
  /** Sum of the known costs, US dollars. */
  cost_usd: number;
  /** Calls whose cost is unknown (not in `cost_usd`). */
  unpriced: number;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  scores: Partial<Record<ScorerName, { scores: number; unsafe: number }>>;
}

const HOUR = 3_600_000;

/** Hourly points of [start, end) (epoch ms, whole hours). */
export function useTimeseries(projectId: string, start: number, end: number) {
  return useQuery({
    ...routeQuery(api.projects[":projectId"].stats.timeseries, {
      param: { projectId },
      query: { bucket: "hour", start: new Date(start).toISOString(), end: new Date(end).toISOString() },
    }),
  });
}

const median = (xs: number[]) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]! : null);

/** Hourly points as buckets of `unit`: hours as they are, or local calendar days (sums; latencies as documented on `Bucket`). */
export function regroup(points: Point[], unit: "hour" | "day"): Bucket[] {
  const groups = new Map<number, Point[]>();
  for (const p of points) {
    const d = new Date(p.bucket);
    const key = unit === "hour" ? d.getTime() : new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return [...groups.entries()].map(([t, ps]) => {
    const scores: Bucket["scores"] = {};
    for (const p of ps)
      for (const s of p.scorers) {
        const acc = (scores[s.scorer_name] ??= { scores: 0, unsafe: 0 });
        acc.scores += s.scores;
        acc.unsafe += s.unsafe;
      }
    const p50s = ps.flatMap((p) => (p.p50_latency_ms === null ? [] : [p.p50_latency_ms]));
    const p95s = ps.flatMap((p) => (p.p95_latency_ms === null ? [] : [p.p95_latency_ms]));
    return {
      t,
      requests: ps.reduce((a, p) => a + p.requests, 0),
      errors: ps.reduce((a, p) => a + p.errors, 0),
      cost_usd: ps.reduce((a, p) => a + p.cost_usd, 0),
      unpriced: ps.reduce((a, p) => a + p.unpriced, 0),
      p50_latency_ms: median(p50s),
      p95_latency_ms: p95s.length ? Math.max(...p95s) : null,
      scores,
    };
  });
}

/** The end (exclusive, epoch ms) of the bucket of `unit` starting at `t`: the next hour, or the next local midnight. */
export function bucketEnd(t: number, unit: "hour" | "day"): number {
  if (unit === "hour") return t + HOUR;
  const d = new Date(t);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
}

/** Unsafe share of a scorer's scores in `buckets` (null without scores). */
export function unsafeRate(buckets: Bucket[], scorer: ScorerName): number | null {
  const scores = buckets.reduce((a, b) => a + (b.scores[scorer]?.scores ?? 0), 0);
  return scores ? buckets.reduce((a, b) => a + (b.scores[scorer]?.unsafe ?? 0), 0) / scores : null;
}
