import { requestBuckets, scoreBuckets } from "../../../../src/db/stats";
import { SCORER_NAMES } from "../../../../src/enums";
import { createRouter, projectRoutesTagged } from "./openapi";
import { TimeseriesSchema } from "./schemas";
import { BUCKET_MS, TimeseriesQuery } from "./queries";

const timeseriesRoute = projectRoutesTagged("stats")("get", "/api/stats/timeseries", "read", {
  summary: "Per time bucket: requests, error rate, p50/p95 latency, cost and unsafe rate per scorer",
  description:
    "Every bucket of [start, end) is listed, zeros where nothing happened. Requests count by their created_at; " +
    'errors are requests whose capture recorded `metadata.status = "error"`; latency percentiles are interpolated in ' +
    "a per-hour latency histogram with log-spaced buckets 2^(k/8) ms (Prometheus native histogram schema 3), so within " +
    "9% of the exact value. Whole hours are read from hourly rollups and partial hours at the range's edges from the " +
    "rows, so any range is exact. Scores count by their own created_at.",
  request: { query: TimeseriesQuery },
  responses: {
    200: {
      description: "The series, oldest bucket first",
      content: { "application/json": { schema: TimeseriesSchema } },
    },
  },
});

/** Bucket starts of [start, end) in UTC. */
function bucketStarts(unit: "hour" | "day", start: Date, end: Date): number[] {
  const first = new Date(start);
  if (unit === "day") first.setUTCHours(0, 0, 0, 0);
  else first.setUTCMinutes(0, 0, 0);
  const out: number[] = [];
  for (let t = first.getTime(); t < end.getTime(); t += BUCKET_MS[unit]) out.push(t);
  return out;
}

/** Registers the stats routes. */
export const statsRoutes = createRouter().openapi(timeseriesRoute, async (c) => {
  const q = c.req.valid("query");
  const start = new Date(q.start);
  const end = new Date(q.end);
  const [requests, scores] = await Promise.all([
    requestBuckets(c.var.db, c.var.projectId, q.bucket, start, end),
    scoreBuckets(c.var.db, c.var.projectId, q.bucket, start, end),
  ]);
  const reqBy = new Map(requests.map((r) => [r.bucket.getTime(), r]));
  const scoreBy = new Map(scores.map((s) => [`${s.bucket.getTime()}|${s.scorer_name}`, s]));
  const points = bucketStarts(q.bucket, start, end).map((t) => {
    const r = reqBy.get(t);
    return {
      bucket: new Date(t).toISOString(),
      requests: r?.requests ?? 0,
      errors: r?.errors ?? 0,
      error_rate: r ? r.errors / r.requests : null,
      p50_latency_ms: r?.p50_latency_ms ?? null,
      p95_latency_ms: r?.p95_latency_ms ?? null,
      cost_usd: r?.cost_usd ?? 0,
      unpriced: r?.unpriced ?? 0,
      scorers: SCORER_NAMES.map((name) => {
        const s = scoreBy.get(`${t}|${name}`);
        const judged = s ? s.scores - s.unscored : 0;
        return { scorer_name: name, scores: s?.scores ?? 0, unsafe: s?.unsafe ?? 0, unsafe_rate: judged > 0 ? s!.unsafe / judged : null };
      }),
    };
  });
  return c.json({ bucket: q.bucket, points }, 200);
});
