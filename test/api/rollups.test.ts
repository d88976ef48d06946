/**
 * The hourly rollups (src/db/rollups.ts) stay equal to a recomputation from the raw rows through
 * every writer: single-call ingest (/internal/log), queue batches with redelivered records,
 * scores saved twice (a redelivered job, a request re-scored after the sweep), partial score
 * writes completed later, and the scorer's cost fill. The recomputation here is independent of
 * the SQL that maintains the rollups: histograms are built in TypeScript from the latencies.
 */
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys";
import { DEFAULT_TIER_LIMITS } from "../../src/billing/tiers";
import { type Db, workersSocket } from "../../src/db/driver/client";
import { type BatchEntry, ingestBatch } from "../../src/db/ingest-batch";
import type { LogRecord } from "../../src/db/ingest-record";
import { histogramQuantile, LATENCY_BOUNDS_MS, LATENCY_HIST_LENGTH, latencyBucket } from "../../src/db/rollups";
import { saveCosts, saveScores } from "../../src/db/request-scoring";
import { PRICE_TABLE_VERSION } from "../../src/pricing/price-call";
import { requestBuckets, scoreBuckets, splitRange } from "../../src/db/stats";
import type { PolicyScore } from "../../src/policy/apply";
import { SCORER_NAMES } from "../../src/enums";
import { api, internal, logBody, newProject, postLog, sql, testEnv } from "./helpers";

let pool: pg.Pool;
let db: Db;
const T0 = Date.UTC(2026, 8, 1, 10); // an hour start
const at = (minutes: number) => new Date(T0 + minutes * 60_000);

beforeAll(() => {
  pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 2 });
  db = drizzle({ client: pool }) as unknown as Db;
});
afterAll(async () => {
  await pool?.end();
});

const record = (minutes: number, latency: number, extra: Partial<LogRecord> = {}): LogRecord => ({
  ...(logBody({ latency_ms: latency }) as unknown as LogRecord),
  metadata: {},
  created_at: at(minutes),
  ...extra,
});

/** Six scores; `unsafe` scorers get value 5, the first scorer of `unscored` none, others `value`. */
function scores(value: number, unsafe: string[] = [], unscored: string[] = []): PolicyScore[] {
  const made = { rationale: "t", scorer_version: "t", unsafe_at: 4, policy_version: 0, decided_by: "local" };
  return SCORER_NAMES.map((name) =>
    unscored.includes(name)
      ? { scorer_name: name, score_value: null, score_label: "unscored", ...made }
      : unsafe.includes(name)
        ? { scorer_name: name, score_value: 5, score_label: "unsafe", ...made }
        : { scorer_name: name, score_value: value, score_label: value >= 4 ? "unsafe" : "safe", ...made },
  ) as PolicyScore[];
}

/** Each request's `created_at` as PostgreSQL's text (what `loadCalls` hands `saveScores`), by id. */
async function createdAtOf(ids: string[]): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; at: string }>("SELECT id, created_at::text AS at FROM llm_requests WHERE id = ANY($1::uuid[])", [ids]);
  return new Map(rows.map((r) => [r.id, r.at]));
}

/** The project's request rollup rows, keyed by hour (ms). */
async function storedRequests(projectId: string) {
  const rows = await sql<Record<string, unknown>>(
    `SELECT hour, requests, errors, cost_usd::text AS cost, unpriced, prompt_tokens::int AS prompt_tokens, completion_tokens::int AS completion_tokens,
            latency_ms_sum::int AS latency_ms_sum, latency_hist FROM request_rollups WHERE project_id = $1 ORDER BY hour`,
    [projectId],
  );
  return rows.map((r) => ({ ...r, hour: (r.hour as Date).getTime() }));
}

/** The same rows recomputed from llm_requests (histograms in TypeScript). */
async function recomputedRequests(projectId: string) {
  const raw = await sql<{ hour: Date; latency_ms: number; is_error: boolean; unpriced: boolean; prompt_tokens: number; completion_tokens: number }>(
    "SELECT date_trunc('hour', created_at, 'UTC') AS hour, latency_ms, is_error, cost_usd IS NULL AS unpriced, prompt_tokens, completion_tokens FROM llm_requests WHERE project_id = $1",
    [projectId],
  );
  const costs = await sql<{ hour: Date; cost: string }>(
    "SELECT date_trunc('hour', created_at, 'UTC') AS hour, coalesce(sum(cost_usd), 0)::numeric(30, 10)::text AS cost FROM llm_requests WHERE project_id = $1 GROUP BY 1",
    [projectId],
  );
  const by = new Map<number, Record<string, unknown> & { latency_hist: number[] }>();
  for (const r of raw) {
    const hour = r.hour.getTime();
    const row = by.get(hour) ?? {
      hour,
      requests: 0,
      errors: 0,
      cost: costs.find((c) => c.hour.getTime() === hour)!.cost,
      unpriced: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      latency_ms_sum: 0,
      latency_hist: new Array<number>(LATENCY_HIST_LENGTH).fill(0),
    };
    row.requests = (row.requests as number) + 1;
    row.errors = (row.errors as number) + (r.is_error ? 1 : 0);
    row.unpriced = (row.unpriced as number) + (r.unpriced ? 1 : 0);
    row.prompt_tokens = (row.prompt_tokens as number) + r.prompt_tokens;
    row.completion_tokens = (row.completion_tokens as number) + r.completion_tokens;
    row.latency_ms_sum = (row.latency_ms_sum as number) + r.latency_ms;
    row.latency_hist[latencyBucket(r.latency_ms)]! += 1;
    by.set(hour, row);
  }
  return [...by.values()].sort((a, b) => (a.hour as number) - (b.hour as number));
}

const scoreRollupSql = `SELECT hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5 FROM score_rollups
  WHERE project_id = $1 ORDER BY hour, scorer_name`;
const scoreRecomputeSql = `SELECT date_trunc('hour', created_at, 'UTC') AS hour, scorer_name, count(*)::int AS scores,
    count(*) FILTER (WHERE score_label = 'unsafe')::int AS unsafe, count(*) FILTER (WHERE score_label = 'unscored')::int AS unscored,
    count(*) FILTER (WHERE score_value = 1)::int AS value_1, count(*) FILTER (WHERE score_value = 2)::int AS value_2,
    count(*) FILTER (WHERE score_value = 3)::int AS value_3, count(*) FILTER (WHERE score_value = 4)::int AS value_4,
    count(*) FILTER (WHERE score_value = 5)::int AS value_5
  FROM safety_scores WHERE project_id = $1 AND superseded_at IS NULL GROUP BY 1, 2 ORDER BY 1, 2`;

async function expectRollupsExact(projectId: string) {
  expect(await storedRequests(projectId)).toEqual(await recomputedRequests(projectId));
  expect(await sql(scoreRollupSql, [projectId])).toEqual(await sql(scoreRecomputeSql, [projectId]));
}

describe("Hourly rollups", () => {
  it("Should hold the same bucket bounds in the database as in TypeScript, and bucket like width_bucket", async () => {
    const [row] = await sql<{ bounds: number[] }>("SELECT sightline_latency_bounds() AS bounds");
    expect(row!.bounds).toEqual(LATENCY_BOUNDS_MS);
    const probes = [-3, 0, 1, 2, 12, 13, 14, 15, 99, 100, 107, 108, 1999, 2048, 4_194_303, 4_194_304, 9_999_999];
    const [hist] = await sql<{ h: number[] }>("SELECT sightline_latency_histogram($1::int[]) AS h", [probes]);
    const expected = new Array<number>(LATENCY_HIST_LENGTH).fill(0);
    for (const p of probes) expected[latencyBucket(p)]! += 1;
    expect(hist!.h).toEqual(expected);
  });

  it("Should equal a recomputation from the rows after single calls, batches with redeliveries, re-scoring, the sweep and cost fills", async () => {
    const { key, projectId } = await newProject("rollups");
    // Single-call path: three calls over two hours, one failed.
    const single: string[] = [];
    for (const [minutes, latency, status] of [
      [5, 120, "success"],
      [50, 3400, "error"],
      [70, 9, "success"],
    ] as const) {
      const res = await postLog(key, logBody({ created_at: at(minutes).toISOString(), latency_ms: latency, metadata: { status } }));
      expect(res.status).toBe(202);
      single.push(((await res.json()) as { id: string }).id);
    }
    // Queue-batch path: five records over three hours, one of them twice in the batch.
    const keyHash = await hashKey(key);
    const entries: BatchEntry[] = [
      [10, 250],
      [20, 251],
      [65, 0],
      [130, 70_000],
      [131, 5_000_000],
    ].map(([m, l]) => ({ id: uuidv7(), keyHash, record: record(m!, l!, { cost_usd: m === 65 ? null : 0.000321, prompt_tokens: m!, completion_tokens: 2 }) }));
    const first = await ingestBatch(db, [...entries, entries[0]!], DEFAULT_TIER_LIMITS, env.BODIES);
    expect(first.map((r) => r.outcome)).toEqual(new Array(6).fill("stored"));
    expect((await sql("SELECT id FROM llm_requests WHERE id = ANY($1)", [entries.map((e) => e.id)])).length).toBe(5);
    await expectRollupsExact(projectId);
    // Redelivery of two records with one new one: only the new one counts.
    const extra: BatchEntry = { id: uuidv7(), keyHash, record: record(21, 1_000, { metadata: { status: "error" } }) };
    const again = await ingestBatch(db, [entries[1]!, extra, entries[3]!], DEFAULT_TIER_LIMITS, env.BODIES);
    expect(again.map((r) => r.outcome)).toEqual(["duplicate", "stored", "duplicate"]);
    await expectRollupsExact(projectId);
    const [counts] = await sql<{ n: number }>("SELECT sum(requests)::int AS n FROM request_rollups WHERE project_id = $1", [projectId]);
    expect(counts!.n).toBe(9);

    // Scores: saved once, then the same job redelivered.
    const ids = [...single, ...entries.map((e) => e.id)];
    const times = await createdAtOf(ids);
    const batch = ids.slice(0, 4).map((id, i) => ({
      request_id: id,
      project_id: projectId,
      created_at: times.get(id)!,
      scores: scores(1 + i, i === 1 ? ["pii_detection"] : [], i === 2 ? ["content_safety"] : []),
    }));
    await saveScores(db, batch);
    await saveScores(db, batch);
    await expectRollupsExact(projectId);
    // A request whose first attempt stored only three scores, left unscored: the sweep
    // re-enqueues it and the re-run writes all six with other values; only the missing three count.
    const partial = ids[5]!;
    await saveScores(db, [{ request_id: partial, project_id: projectId, created_at: times.get(partial)!, scores: scores(2).slice(0, 3) }]);
    await sql("UPDATE llm_requests SET scoring_state = 'queued', enqueued_at = now() - interval '1 hour' WHERE id = $1", [partial]);
    const swept = await api("/internal/sweep?older_than_seconds=60", { method: "POST", headers: internal });
    expect(swept.status).toBe(200);
    await saveScores(db, [{ request_id: partial, project_id: projectId, created_at: times.get(partial)!, scores: scores(5) }]);
    const [partialRows] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM safety_scores WHERE request_id = $1", [partial]);
    expect(partialRows!.n).toBe(6);
    await expectRollupsExact(projectId);
    const [scoreTotal] = await sql<{ n: number }>("SELECT sum(scores)::int AS n FROM score_rollups WHERE project_id = $1", [projectId]);
    expect(scoreTotal!.n).toBe(5 * 6);

    // The scorer's cost fill changes cost_usd of a row logged without a cost, once.
    const [unpriced] = await sql<{ n: number }>("SELECT sum(unpriced)::int AS n FROM request_rollups WHERE project_id = $1", [projectId]);
    await saveCosts(db, [{ id: entries[2]!.id, cost: { cost_usd: 0.0042, price_version: PRICE_TABLE_VERSION } }]);
    await saveCosts(db, [{ id: entries[2]!.id, cost: { cost_usd: 0.5, price_version: PRICE_TABLE_VERSION } }]);
    const [stillUnpriced] = await sql<{ n: number }>("SELECT sum(unpriced)::int AS n FROM request_rollups WHERE project_id = $1", [projectId]);
    expect(stillUnpriced!.n).toBe(unpriced!.n - 1);
    await expectRollupsExact(projectId);
    const [cost] = await sql<{ cost: string; cost_source: string; price_version: string }>(
      "SELECT cost_usd::text AS cost, cost_source, price_version FROM llm_requests WHERE id = $1",
      [entries[2]!.id],
    );
    expect(cost).toEqual({ cost: "0.0042000000", cost_source: "genai-prices", price_version: PRICE_TABLE_VERSION });

    // The backfill statement of the migration recomputes the same rows.
    const before = [await storedRequests(projectId), await sql(scoreRollupSql, [projectId])];
    await sql("SELECT sightline_rebuild_rollups()");
    expect([await storedRequests(projectId), await sql(scoreRollupSql, [projectId])]).toEqual(before);
  });

  it("Should give the overview from whole hours plus raw partial edges, equal to counting the rows of the range", async () => {
    const { key, projectId } = await newProject("rollup ranges");
    // 60 calls, one every 3 minutes over three hours.
    const keyHash = await hashKey(key);
    const stored = await ingestBatch(
      db,
      Array.from({ length: 60 }, (_, i) => ({ id: uuidv7(), keyHash, record: record(i * 3, 50 + ((i * 7919) % 1500)) })),
      DEFAULT_TIER_LIMITS,
      env.BODIES,
    );
    expect(stored.every((r) => r.outcome === "stored")).toBe(true);
    const ids = (await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at", [projectId])).map((r) => r.id);
    const times = await createdAtOf(ids);
    await saveScores(
      db,
      ids.map((id, i) => ({
        request_id: id,
        project_id: projectId,
        created_at: times.get(id)!,
        scores: scores(1, i % 4 === 0 ? ["jailbreak_detection"] : []),
      })),
    );

    // 10:20 to 12:40: two partial hours around one whole hour.
    const start = at(20);
    const end = at(160);
    expect(splitRange(start, end)).toEqual({
      hours: [at(60), at(120)],
      edges: [
        [start, at(60)],
        [at(120), end],
      ],
    });
    const hours = await requestBuckets(db, projectId, "hour", start, end);
    const raw = await sql<{ hour: Date; n: number; errors: number }>(
      `SELECT date_trunc('hour', created_at, 'UTC') AS hour, count(*)::int AS n, count(*) FILTER (WHERE is_error)::int AS errors
         FROM llm_requests WHERE project_id = $1 AND created_at >= $2 AND created_at < $3 GROUP BY 1 ORDER BY 1`,
      [projectId, start, end],
    );
    expect(hours.map((h) => [h.bucket.getTime(), h.requests, h.errors])).toEqual(raw.map((r) => [r.hour.getTime(), r.n, r.errors]));
    expect(hours.map((h) => h.requests)).toEqual([13, 20, 14]);
    const unsafe = await scoreBuckets(db, projectId, "day", start, end);
    const jailbreak = unsafe.find((s) => s.scorer_name === "jailbreak_detection")!;
    const [expected] = await sql<{ n: number; unsafe: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE score_label = 'unsafe')::int AS unsafe FROM safety_scores
         WHERE project_id = $1 AND scorer_name = 'jailbreak_detection' AND created_at >= $2 AND created_at < $3`,
      [projectId, start, end],
    );
    expect([jailbreak.scores, jailbreak.unsafe]).toEqual([expected!.n, expected!.unsafe]);

    // A range inside one hour reads rows only; a day is the sum of its hours.
    const inside = await requestBuckets(db, projectId, "hour", at(62), at(64));
    expect(inside.map((b) => b.requests)).toEqual([1]);
    const [day] = await requestBuckets(db, projectId, "day", at(0), at(180));
    expect(day!.requests).toBe(60);
    // The day's percentiles are within one histogram bucket (9.05%) of the exact ones.
    const [exact] = await sql<{ p50: number; p95: number }>(
      "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY latency_ms) AS p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY latency_ms) AS p95 FROM llm_requests WHERE project_id = $1",
      [projectId],
    );
    expect(Math.abs(day!.p50_latency_ms - exact!.p50) / exact!.p50).toBeLessThan(0.0905);
    expect(Math.abs(day!.p95_latency_ms - exact!.p95) / exact!.p95).toBeLessThan(0.0905);
    expect(histogramQuantile(new Array<number>(LATENCY_HIST_LENGTH).fill(0), 0.5)).toBeNull();
  });
});
