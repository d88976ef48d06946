/**
 * `npm run bench:dashboard`: the API routes of the dashboard pages at scale.
 *
 * Seeds one project with BENCH_ROWS requests (default 1,000,000) spread over 30 days and their
 * six scores each, through `COPY ... FROM STDIN` (pg-copy-streams; a generator, not the API),
 * into a fresh embedded PostgreSQL with the migrations applied. The secondary indexes are
 * dropped for the load and rebuilt after it, then VACUUM ANALYZE (the usual bulk-load recipe;
 * the scores' foreign-key triggers are off for their load with `session_replication_role = replica`;
 * the requests' row trigger computes their preview and search document), and the
 * hourly rollups are filled by the migration's backfill function `sightline_rebuild_rollups()`.
 *
 * Then the API worker's deployment bundle runs in workerd (scripts/lib/workerd.ts) with
 * HYPERDRIVE pointing at PgBouncer in transaction mode (the local stand-in for Hyperdrive's
 * pool, as in bench/ingest), and each route the pages use is called BENCH_SAMPLES times in
 * sequence over keep-alive HTTP: list first page with and without filters, the total, one
 * detail, the overview series for 24 h and 30 days, and the export rate.
 *
 * Targets (issue 15): list and detail p50 <= 50 ms, overview 30 days p50 <= 300 ms,
 * export >= 20,000 rows/s. Writes bench/results/dashboard-scale.md and .json.
 */
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startPgBouncer } from "../../scripts/lib/pgbouncer";
import { startWorkerd } from "../../scripts/lib/workerd";
import { countLines } from "../lib/count-lines";
import { agent, get, measureRoute, type RouteResult } from "../lib/http-measure";
import { copyInto, copyText, rnd, secondaryIndexes, uuidv7At } from "../lib/seed-rows";
import type { Db } from "../../src/db/driver/client";
import { exportPage } from "../../src/db/request-export";
import { SCORER_NAMES } from "../../src/enums";

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25592);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8791);
const PGBOUNCER_PORT = PG_PORT + 1;
/** The seeded range ends here; rows are evenly spread over the 30 days before. */
const END = Date.UTC(2026, 10, 20);
const SPAN_MS = 30 * 86_400_000;

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const TOPICS = ["invoice", "refund", "shipping", "password", "recipe", "poem", "contract", "travel", "diagnosis", "mortgage", "python", "sql"];
const MODELS = [
  ["gpt-4o-mini", "openai"],
  ["gpt-4o", "openai"],
  ["claude-sonnet-4-5", "anthropic"],
  ["command-r", "cohere"],
] as const;

interface Seeded {
  id: string;
  at: number;
}

/** Generates the request rows as COPY text, collecting ids and times for the score generator. */
function* requestLines(projectId: string, out: Seeded[]): Generator<string> {
  let chunk = "";
  for (let i = 0; i < ROWS; i++) {
    const at = END - SPAN_MS + Math.floor((i * SPAN_MS) / ROWS);
    const id = uuidv7At(at, i);
    out.push({ id, at });
    const [model, provider] = MODELS[Math.floor(rnd(i, 1) * MODELS.length)]!;
    const topic = TOPICS[i % TOPICS.length]!;
    const pii = rnd(i, 2) < 0.02 ? ` My email is user${i}@example.com.` : "";
    const rare = i % 10_000 === 17 ? " quetzal" : "";
    const request = {
      model,
      messages: [
        { role: "system", content: "You are a helpful assistant." },
        { role: "user", content: `Question ${i} about ${topic}.${pii}${rare}` },
      ],
    };
    const error = rnd(i, 3) < 0.02;
    const response = error
      ? null
      : { choices: [{ message: { role: "assistant", content: `Here is an answer about ${topic} number ${i}.` }, finish_reason: "stop" }] };
    const metadata = error ? { status: "error", error: { type: "rate_limit", message: "429" } } : { status: "success" };
    const latency = Math.floor(200 + rnd(i, 4) * 1800);
    chunk += `${id}\t${projectId}\t${model}\t${provider}\t${40 + (i % 200)}\t${error ? 0 : 20 + (i % 300)}\t${(0.00001 + rnd(i, 5) * 0.001).toFixed(10)}\t${latency}\t${copyText(JSON.stringify(request))}\t${copyText(response ? JSON.stringify(response) : null)}\t${copyText(JSON.stringify(metadata))}\t${new Date(at).toISOString()}\tscored\n`;
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/** Generates six score rows per request: ~3% unsafe (value 4-5), ~5% unscored, the rest safe (1-3). */
function* scoreChunks(projectId: string, requests: Seeded[]): Generator<string> {
  let chunk = "";
  for (let i = 0; i < requests.length; i++) {
    const r = requests[i]!;
    // A score carries its request's created_at (its partition key, docs/storage.md).
    const at = new Date(r.at).toISOString();
    for (let k = 0; k < SCORER_NAMES.length; k++) {
      const p = rnd(i, 10 + k);
      const [value, label] =
        p < 0.03 ? [p < 0.015 ? "5" : "4", "unsafe"] : p < 0.08 ? ["\\N", "unscored"] : [String(1 + Math.floor(rnd(i, 20 + k) * 3)), "safe"];
      chunk += `${uuidv7At(r.at + 2000, i, 1 + k)}\t${r.id}\t${projectId}\t${SCORER_NAMES[k]}\t${value}\t${label}\tseeded\t${at}\n`;
    }
    if (chunk.length > 1 << 16) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

/** Times one route (bench/lib/http-measure.ts) with this run's samples and log. */
const measure = (base: string, headers: Record<string, string>, name: string, path: string, target: number | null, rowsOf: (body: string) => number | null) =>
  measureRoute(base, headers, { name, path, target_ms: target, rowsOf }, SAMPLES, log);

// ---- main -------------------------------------------------------------------------------------

// BENCH_SHARED_BUFFERS (e.g. 1GB) sizes PostgreSQL's buffer cache; the default is the server's (128 MB).
const SHARED_BUFFERS = process.env.BENCH_SHARED_BUFFERS;
const server = await startEmbeddedPostgres({
  dir: ".data/bench-dashboard-pg",
  port: PG_PORT,
  ephemeral: true,
  settings: SHARED_BUFFERS ? { shared_buffers: SHARED_BUFFERS } : {},
});
const url = server.urlFor("sightline_bench_dashboard");
const stops: (() => Promise<void>)[] = [() => server.stop()];
try {
  await ensureDatabase(server.serverUrl, "sightline_bench_dashboard", true);
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {}); // an idle client cut off when the server stops at the end
  stops.unshift(() => pool.end());
  const projectId = uuidv7At(Date.now(), 0, 50);
  const client = await pool.connect();
  const seed: Record<string, number> = {};
  try {
    await client.query("INSERT INTO projects (id, name) VALUES ($1, 'bench dashboard')", [projectId]);
    await client.query(
      "INSERT INTO subscriptions (project_id, tier, period_start_at, period_reset_at) VALUES ($1, 'enterprise', now(), now() + interval '30 days')",
      [projectId],
    );
    // The seeded months get their partitions, as the sweep would have made them (docs/storage.md).
    for (let m = END - SPAN_MS; m < END + 31 * 86_400_000; m += 28 * 86_400_000) {
      for (const table of ["llm_requests", "safety_scores"]) {
        await client.query("SELECT sightline_create_month_partition($1, $2::timestamptz)", [table, new Date(m).toISOString()]);
      }
    }
    const dropped = [...(await secondaryIndexes(client, "llm_requests")), ...(await secondaryIndexes(client, "safety_scores"))];
    for (const ix of dropped) await client.query(`DROP INDEX ${ix.indexname}`);
    await client.query("SET maintenance_work_mem = '512MB'");
    const seeded: Seeded[] = [];
    /** COPYs `lines` into `table`, logs and returns the seconds it took. */
    const timedCopy = async (table: string, columns: string, lines: Iterable<string>, what: string) => {
      const start = performance.now();
      await copyInto(client, table, columns, lines);
      const seconds = (performance.now() - start) / 1000;
      log(`COPY ${what}: ${seconds.toFixed(1)} s`);
      return seconds;
    };
    seed.requests_copy_s = await timedCopy(
      "llm_requests",
      "id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, latency_ms, request_body, response_body, metadata, created_at, scoring_state",
      requestLines(projectId, seeded),
      `${ROWS} requests`,
    );
    // Row triggers stay on for the requests: `llm_requests_derived` computes each row's preview and
    // search document (migration 0019); the scores load without foreign-key triggers.
    await client.query("SET session_replication_role = replica");
    seed.scores_copy_s = await timedCopy(
      "safety_scores",
      "id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at",
      scoreChunks(projectId, seeded),
      `${ROWS * 6} scores`,
    );
    await client.query("SET session_replication_role = DEFAULT");
    let t = performance.now();
    for (const ix of dropped) {
      const t1 = performance.now();
      await client.query(ix.indexdef);
      log(`  ${ix.indexname}: ${((performance.now() - t1) / 1000).toFixed(1)} s`);
    }
    seed.indexes_s = (performance.now() - t) / 1000;
    t = performance.now();
    await client.query("VACUUM ANALYZE llm_requests");
    await client.query("VACUUM ANALYZE safety_scores");
    seed.vacuum_analyze_s = (performance.now() - t) / 1000;
    // COPY bypasses the API's writers: fill the hourly rollups the overview reads with the
    // migration's backfill statement (src/db/rollups.ts).
    t = performance.now();
    await client.query("SELECT sightline_rebuild_rollups()");
    await client.query("VACUUM ANALYZE request_rollups");
    await client.query("VACUUM ANALYZE score_rollups");
    seed.rollups_s = (performance.now() - t) / 1000;
    log(`rollups backfilled: ${seed.rollups_s.toFixed(1)} s`);
    log(`indexes ${seed.indexes_s.toFixed(1)} s, vacuum analyze ${seed.vacuum_analyze_s.toFixed(1)} s`);
  } finally {
    client.release();
  }
  const counts = (await pool.query<{ r: string; s: string }>("SELECT (SELECT count(*) FROM llm_requests) r, (SELECT count(*) FROM safety_scores) s")).rows[0]!;
  const sizes = (
    await pool.query<{ r: string; s: string }>(
      "SELECT pg_size_pretty(pg_total_relation_size('llm_requests')) r, pg_size_pretty(pg_total_relation_size('safety_scores')) s",
    )
  ).rows[0]!;

  const bouncer = await startPgBouncer({ target: url, port: PGBOUNCER_PORT, poolSize: 8, dir: ".data/bench-dashboard-pgbouncer" }).catch((err: Error) => {
    log(`PgBouncer unavailable (${err.message}); the worker connects directly`);
    return null;
  });
  if (bouncer) stops.unshift(() => bouncer.stop());
  const secret = randomBytes(32).toString("hex");
  const worker = await startWorkerd({
    config: "workers/api/wrangler.jsonc",
    port: API_PORT,
    hyperdrive: bouncer?.url ?? url,
    vars: { INTERNAL_API_SECRET: secret },
    persistTo: ".wrangler/bench-dashboard",
  });
  stops.unshift(() => worker.stop());
  const base = worker.url;
  const headers = { "X-Internal-Secret": secret };
  const p = `project_id=${projectId}`;
  const itemsOf = (b: string) => (JSON.parse(b) as { items: unknown[] }).items.length;
  const totalOf = (b: string) => (JSON.parse(b) as { total: number }).total;
  const pointsOf = (b: string) => (JSON.parse(b) as { points: unknown[] }).points.length;
  const day = 86_400_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  const detailId = (
    JSON.parse(
      (
        await get(
          `${base}/api/requests/keyset?${p}&limit=1&cursor=${(JSON.parse((await get(`${base}/api/requests/keyset?${p}&limit=50`, headers)).body) as { next_cursor: string }).next_cursor}`,
          headers,
        )
      ).body,
    ) as { items: { id: string }[] }
  ).items[0]!.id;

  const routes: RouteResult[] = [];
  routes.push(await measure(base, headers, "list, first page, no filter", `/api/requests/keyset?${p}&limit=50`, 50, itemsOf));
  routes.push(await measure(base, headers, "list, next page (cursor)", `/api/requests/keyset?${p}&limit=50&cursor=${detailId}`, 50, itemsOf));
  routes.push(await measure(base, headers, "list, provider=anthropic", `/api/requests/keyset?${p}&limit=50&provider=anthropic`, 50, itemsOf));
  routes.push(await measure(base, headers, "list, status=error", `/api/requests/keyset?${p}&limit=50&status=error`, 50, itemsOf));
  routes.push(
    await measure(base, headers, "list, label[content_safety]=unsafe", `/api/requests/keyset?${p}&limit=50&label%5Bcontent_safety%5D=unsafe`, 50, itemsOf),
  );
  routes.push(await measure(base, headers, "list, min_score=5", `/api/requests/keyset?${p}&limit=50&min_score=5`, 50, itemsOf));
  routes.push(await measure(base, headers, "list, text search (rare word)", `/api/requests/keyset?${p}&limit=50&q=quetzal`, 50, itemsOf));
  routes.push(await measure(base, headers, "list, text search (common word)", `/api/requests/keyset?${p}&limit=50&q=refund`, 50, itemsOf));
  routes.push(
    await measure(
      base,
      headers,
      "list, last 24 h + openai + ok",
      `/api/requests/keyset?${p}&limit=50&provider=openai&status=ok&start=${iso(END - day)}&end=${iso(END)}`,
      50,
      itemsOf,
    ),
  );
  routes.push(await measure(base, headers, "count, no filter", `/api/requests/count?${p}`, null, totalOf));
  routes.push(await measure(base, headers, "count, status=error", `/api/requests/count?${p}&status=error`, null, totalOf));
  routes.push(await measure(base, headers, "count, last 24 h", `/api/requests/count?${p}&start=${iso(END - day)}&end=${iso(END)}`, null, totalOf));
  routes.push(await measure(base, headers, "detail with neighbours", `/api/requests/${detailId}?${p}&neighbours=true`, 50, () => 1));
  /** GET /api/stats/timeseries over the last `spanMs` in `bucket` buckets, against a p50 target (ms) or none. */
  const overview = (name: string, bucket: "hour" | "day", spanMs: number, targetMs: number | null) =>
    measure(base, headers, name, `/api/stats/timeseries?${p}&bucket=${bucket}&start=${iso(END - spanMs)}&end=${iso(END)}`, targetMs, pointsOf);
  routes.push(await overview("overview 24 h (hour buckets)", "hour", day, null));
  routes.push(await overview("overview 30 days (day buckets)", "day", 30 * day, 300));
  routes.push(await overview("overview 30 days (hour buckets)", "hour", 30 * day, 300));

  // Export: the last 3 days (a tenth of the rows), JSONL and CSV, every row read.
  const exportRuns: { format: string; rows: number; seconds: number; rows_per_s: number; mb: number }[] = [];
  for (const format of ["jsonl", "csv"]) {
    const r = await countLines(agent, `${base}/api/requests/export?${p}&format=${format}&start=${iso(END - 3 * day)}&end=${iso(END)}`, headers);
    if (r.status !== 200) throw new Error(`export ${format}: ${r.status}`);
    const rows = format === "csv" ? r.lines - 1 : r.lines;
    const run = { format, rows, seconds: r.ms / 1000, rows_per_s: rows / (r.ms / 1000), mb: r.bytes / 1e6 };
    exportRuns.push(run);
    log(`export ${format}: ${rows} rows in ${run.seconds.toFixed(1)} s = ${run.rows_per_s.toFixed(0)} rows/s (${run.mb.toFixed(1)} MB)`);
  }

  // Where the export's time goes: the same 100,000 rows read by the export's own query
  // (exportPage, keyset pages of 1,000) straight from Node over the pool, with no worker,
  // masking or HTTP: the database side alone.
  const nodeDb = drizzle({ client: pool }) as unknown as Db;
  const filters = { start: new Date(END - 3 * day), end: new Date(END) };
  let cursor: string | undefined;
  let dbRows = 0;
  const t0 = performance.now();
  for (;;) {
    const rows = await exportPage(nodeDb, null, projectId, filters, cursor, 1000);
    dbRows += rows.length;
    if (rows.length < 1000) break;
    cursor = rows[rows.length - 1]!.id;
  }
  const exportDb = { rows: dbRows, seconds: (performance.now() - t0) / 1000 };
  log(`export query alone (Node, pg pool): ${dbRows} rows in ${exportDb.seconds.toFixed(1)} s = ${(dbRows / exportDb.seconds).toFixed(0)} rows/s`);

  const result = {
    date: new Date().toISOString(),
    machine: `2 cores (shared with other engineers' test runs), embedded PostgreSQL 18 (fsync off, shared_buffers ${SHARED_BUFFERS ?? "128MB, the default"}), API bundle in workerd, PgBouncer transaction pool as Hyperdrive stand-in`,
    scale: { requests: Number(counts.r), scores: Number(counts.s), requests_size: sizes.r, scores_size: sizes.s },
    seed_seconds: seed,
    samples_per_route: SAMPLES,
    routes,
    export: exportRuns,
    export_query_only: exportDb,
    targets: { list_and_detail_p50_ms: 50, overview_30d_p50_ms: 300, export_rows_per_s: 20_000 },
  };
  writeFileSync(join(ROOT, "bench/results/dashboard-scale.json"), `${JSON.stringify(result, null, 2)}\n`);
  const ok = (r: RouteResult) => (r.target_ms === null ? "" : r.p50_ms <= r.target_ms ? "met" : "**missed**");
  const md = [
    "# Dashboard API at scale (`npm run bench:dashboard`)",
    "",
    `Run ${result.date}. ${result.machine}.`,
    "",
    `Scale: ${counts.r} requests (${sizes.r} with indexes) and ${counts.s} scores (${sizes.s}) in one project, over 30 days.`,
    `Seed through COPY: requests ${seed.requests_copy_s?.toFixed(1)} s, scores ${seed.scores_copy_s?.toFixed(1)} s, index builds ${seed.indexes_s?.toFixed(1)} s, VACUUM ANALYZE ${seed.vacuum_analyze_s?.toFixed(1)} s, hourly rollups backfill ${seed.rollups_s?.toFixed(1)} s.`,
    "",
    `Each route: ${SAMPLES} sequential calls over one keep-alive connection after 3 warm-up calls.`,
    "",
    "| Route | p50 ms | p95 ms | rows | target p50 | |",
    "|---|---:|---:|---:|---:|---|",
    ...routes.map((r) => `| ${r.name} | ${r.p50_ms.toFixed(1)} | ${r.p95_ms.toFixed(1)} | ${r.rows ?? ""} | ${r.target_ms ?? ""} | ${ok(r)} |`),
    "",
    "| Export (last 3 days) | rows | seconds | rows/s | MB | target 20,000 rows/s |",
    "|---|---:|---:|---:|---:|---|",
    ...exportRuns.map(
      (e) =>
        `| ${e.format} | ${e.rows} | ${e.seconds.toFixed(1)} | ${e.rows_per_s.toFixed(0)} | ${e.mb.toFixed(1)} | ${e.rows_per_s >= 20_000 ? "met" : "**missed**"} |`,
    ),
    "",
    `The export's query alone (\`exportPage\` from Node over a pg pool, same rows, pages of 1,000, no worker, masking or HTTP): ${exportDb.rows} rows in ${exportDb.seconds.toFixed(1)} s = ${(exportDb.rows / exportDb.seconds).toFixed(0)} rows/s.`,
    "",
  ].join("\n");
  writeFileSync(join(ROOT, "bench/results/dashboard-scale.md"), md);
  console.log(md);
} finally {
  agent.destroy();
  for (const stop of stops) await stop().catch(() => {});
}
