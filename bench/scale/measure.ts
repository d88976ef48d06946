/**
 * What the scale benchmark measures after each stage: the dashboard's routes on the largest
 * project and on the median one (list, detail with its bodies read from R2, the 30-day overview,
 * export), timed by bench/lib/http-measure.ts against the API worker in workerd; and the
 * ingest consumer's statement (`ingestBatch`, batches of 100 over 100 projects, 4 at once, as in
 * bench/ingest) as PostgreSQL CPU per stored call (bench/lib/proc-cpu.ts).
 */
import { drizzle } from "drizzle-orm/node-postgres";
import type pg from "pg";
import { uuidv7 } from "uuidv7";
import { DEFAULT_TIER_LIMITS } from "../../src/billing/tiers";
import type { Db } from "../../src/db/driver/client";
import { ingestBatch, type BatchEntry } from "../../src/db/ingest-batch";
import type { LogRecord } from "../../src/db/ingest-record";
import { countLines } from "../lib/count-lines";
import { agent, get, measureRoute, type RouteResult } from "../lib/http-measure";
import { loadBatches } from "../lib/load";
import { RARE_WORD } from "./generate";

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const itemsOf = (b: string) => (JSON.parse(b) as { items: unknown[] }).items.length;
const pointsOf = (b: string) => (JSON.parse(b) as { points: unknown[] }).points.length;

/** One export run: rows, seconds, rows per second and MB. */
export interface ExportRun {
  name: string;
  rows: number;
  seconds: number;
  rows_per_s: number;
  mb: number;
}

/** Where to measure: the API's base URL and headers, the range's end, and the two projects. */
export interface Target {
  base: string;
  headers: Record<string, string>;
  endMs: number;
  largest: string;
  median: string;
  samples: number;
  log: (msg: string) => void;
}

/** The newest call of `projectId` whose request body is in R2 (the detail route then reads R2). */
async function callWithR2Body(pool: pg.Pool, projectId: string, endMs: number): Promise<string> {
  const { rows } = await pool.query<{ id: string }>(
    `SELECT id FROM llm_requests WHERE project_id = $1 AND request_body_length IS NOT NULL AND created_at >= $2 AND created_at < $3
      ORDER BY created_at DESC LIMIT 1`,
    [projectId, iso(endMs - 7 * DAY), iso(endMs)],
  );
  if (!rows[0]) throw new Error(`project ${projectId} has no call with its body in R2 in the last 7 days`);
  return rows[0].id;
}

/** Times every route of the dashboard's pages on the largest and the median project. */
export async function measureRoutes(pool: pg.Pool, t: Target): Promise<RouteResult[]> {
  const out: RouteResult[] = [];
  const route = async (name: string, path: string, target: number | null, rowsOf: (b: string) => number | null) =>
    out.push(await measureRoute(t.base, t.headers, { name, path, target_ms: target, rowsOf }, t.samples, t.log));
  for (const [who, projectId] of [
    ["largest", t.largest],
    ["median", t.median],
  ] as const) {
    const p = `project_id=${projectId}`;
    await route(`${who}: list, first page`, `/api/requests/keyset?${p}&limit=50`, 50, itemsOf);
    const detail = await callWithR2Body(pool, projectId, t.endMs);
    await route(`${who}: detail (bodies from R2) with neighbours`, `/api/requests/${detail}?${p}&neighbours=true`, 50, () => 1);
    await route(
      `${who}: overview 30 days (day buckets)`,
      `/api/stats/timeseries?${p}&bucket=day&start=${iso(t.endMs - 30 * DAY)}&end=${iso(t.endMs)}`,
      300,
      pointsOf,
    );
    if (who === "median") continue;
    const next = (JSON.parse((await get(`${t.base}/api/requests/keyset?${p}&limit=50`, t.headers)).body) as { next_cursor: string }).next_cursor;
    await route(`${who}: list, next page (cursor)`, `/api/requests/keyset?${p}&limit=50&cursor=${next}`, 50, itemsOf);
    await route(`${who}: list, label[content_safety]=unsafe`, `/api/requests/keyset?${p}&limit=50&label%5Bcontent_safety%5D=unsafe`, 50, itemsOf);
    await route(`${who}: list, min_score=5`, `/api/requests/keyset?${p}&limit=50&min_score=5`, 50, itemsOf);
    await route(`${who}: list, text search (rare word)`, `/api/requests/keyset?${p}&limit=50&q=${RARE_WORD}`, 50, itemsOf);
    await route(`${who}: list, text search (common word)`, `/api/requests/keyset?${p}&limit=50&q=order`, 50, itemsOf);
    await route(
      `${who}: list, last 24 h + openai + ok`,
      `/api/requests/keyset?${p}&limit=50&provider=openai&status=ok&start=${iso(t.endMs - DAY)}&end=${iso(t.endMs)}`,
      50,
      itemsOf,
    );
    await route(
      `${who}: overview 30 days (hour buckets)`,
      `/api/stats/timeseries?${p}&bucket=hour&start=${iso(t.endMs - 30 * DAY)}&end=${iso(t.endMs)}`,
      300,
      pointsOf,
    );
  }
  return out;
}

/** Runs of each export after a warm-up one; the run of median rate is reported. */
const EXPORT_RUNS = 3;

/**
 * Exports JSONL and CSV of the largest project's last 3 days, JSONL of its last 30 days (a long
 * export: the sustained rate, not the first page's latency), and JSONL of the median project's
 * 90 days (every body read, R2 included). Each after one warm-up run, the median of
 * EXPORT_RUNS.
 */
export async function measureExports(t: Target): Promise<ExportRun[]> {
  const runs: ExportRun[] = [];
  const cases = [
    ["largest, last 3 days, jsonl", t.largest, "jsonl", 3],
    ["largest, last 3 days, csv", t.largest, "csv", 3],
    ["largest, last 30 days, jsonl", t.largest, "jsonl", 30],
    ["median, 90 days, jsonl", t.median, "jsonl", 90],
  ] as const;
  for (const [name, projectId, format, days] of cases) {
    const url = `${t.base}/api/requests/export?project_id=${projectId}&format=${format}&start=${iso(t.endMs - days * DAY)}&end=${iso(t.endMs)}`;
    const measured: ExportRun[] = [];
    for (let i = 0; i <= EXPORT_RUNS; i++) {
      const r = await countLines(agent, url, t.headers);
      if (r.status !== 200) throw new Error(`export ${name}: ${r.status}`);
      const rows = format === "csv" ? r.lines - 1 : r.lines;
      if (i > 0) measured.push({ name, rows, seconds: r.ms / 1000, rows_per_s: rows / (r.ms / 1000), mb: r.bytes / 1e6 });
    }
    const run = measured.sort((a, b) => a.rows_per_s - b.rows_per_s)[Math.floor(EXPORT_RUNS / 2)]!;
    runs.push(run);
    t.log(`export ${name}: ${run.rows} rows in ${run.seconds.toFixed(1)} s = ${run.rows_per_s.toFixed(0)} rows/s (${run.mb.toFixed(1)} MB)`);
  }
  return runs;
}

/** Records per consumer batch (the Queues maximum, as in wrangler.jsonc) and batches at once. */
const BATCH = 100;
const CONCURRENT = 4;

/** Runs of `rows` calls before the measured ones, and measured runs (the median is reported). */
const INGEST_WARMUP_RUNS = 4;
const INGEST_RUNS = 3;

/** What the ingest statement cost: warm (the median of the measured runs) and cold (the first run). */
export interface IngestCpu {
  /** Calls of one run. */
  calls: number;
  /** PostgreSQL CPU per stored call, us, once the statement's pages are cached (as under steady ingest). */
  pg_cpu_us_per_call: number;
  /** Calls per second of that run. */
  calls_per_s: number;
  /** The first run's CPU per call, us: right after a seed's index builds and VACUUM the pages an insert touches are not cached. */
  cold_pg_cpu_us_per_call: number;
}

/**
 * PostgreSQL CPU (us) per call stored by the ingest consumer's statement: runs of `rows` calls
 * of a small chat (bodies inline, `created_at` set as the proxy sets it) over `keyHashes`'
 * projects, batches of 100, 4 at once. Production ingest is steady, so the pages its inserts
 * touch (the current month's index edges, the search index's entries of busy projects) stay
 * cached; after a seed they are not, and the first runs cost up to 1.6x more (340, 302, 275,
 * then 205-237 us at 10M calls). So INGEST_WARMUP_RUNS runs go first and the median of
 * INGEST_RUNS more is reported, with the first run's figure as the cold one. `pgRoot` is the
 * postmaster's pid (only this benchmark's server counts).
 */
export async function measureIngestCpu(pool: pg.Pool, keyHashes: string[], rows: number, pgRoot: number | undefined): Promise<IngestCpu> {
  const db = drizzle({ client: pool }) as unknown as Db;
  const record = (i: number): LogRecord => ({
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 40,
    completion_tokens: 12,
    cost_usd: 0.0000132,
    latency_ms: 600 + (i % 400),
    request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: `Where is my order ${i}? It was due on Monday.` }] },
    response_body: {
      choices: [{ index: 0, message: { role: "assistant", content: "It left the warehouse today and arrives tomorrow." }, finish_reason: "stop" }],
    },
    metadata: { sdk: "bench" },
    // The call's start, as the proxy and the client libraries send it (the duplicate check of a
    // batch then reads only its month, src/db/ingest-record.ts `storedTimeCondition`).
    created_at: new Date(Date.now() - 800),
  });
  let offset = 0;
  const once = async () => {
    const first = offset;
    offset += rows;
    const run = await loadBatches(rows, BATCH, CONCURRENT, { processes: ["postgres"], roots: pgRoot ? { postgres: pgRoot } : {} }, async (b) => {
      const entries: BatchEntry[] = Array.from({ length: BATCH }, (_, j) => ({
        id: uuidv7(),
        keyHash: keyHashes[(first + b * BATCH + j) % keyHashes.length]!,
        record: record(first + b * BATCH + j),
      }));
      const results = await ingestBatch(db, entries, DEFAULT_TIER_LIMITS, null);
      const refused = results.find((r) => r.outcome !== "stored");
      if (refused) throw new Error(`ingestBatch did not store every record: ${JSON.stringify(refused)}`);
    });
    return { us: run.cpuUsPerRequest.postgres ?? 0, perSecond: run.perSecond };
  };
  const runs: { us: number; perSecond: number }[] = [];
  for (let i = 0; i < INGEST_WARMUP_RUNS + INGEST_RUNS; i++) runs.push(await once());
  const median = runs.slice(INGEST_WARMUP_RUNS).sort((a, b) => a.us - b.us)[Math.floor(INGEST_RUNS / 2)]!;
  return { calls: Math.ceil(rows / BATCH) * BATCH, pg_cpu_us_per_call: median.us, calls_per_s: median.perSecond, cold_pg_cpu_us_per_call: runs[0]!.us };
}
