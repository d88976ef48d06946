/**
 * `npm run bench:scale`: Sightline at ten million calls (issue 34, docs/storage.md).
 *
 * Seeds, in stages, BENCH_STAGES cumulative call counts (default 1,000,000 then 10,000,000) over
 * BENCH_DAYS days (90) across BENCH_PROJECTS projects (1,000; Zipf-distributed, the largest
 * holding 13% of calls), six scores per call, into a fresh embedded PostgreSQL with the
 * migrations applied (monthly partitions made ahead as the sweep makes them), with the bodies
 * of real ordinary calls (../shared/eval traffic/train.jsonl, ./corpus.ts) stored as ingest
 * stores them: inline up to 1 KiB, else gzip members in local R2 objects, one per batch and
 * project (./generate.ts, ./r2-seeder.ts). A batch here is BENCH_BATCH_CALLS consecutive calls
 * (default 50,000: a busy deployment's few minutes of traffic; fewer, larger objects than a
 * quiet one makes, to keep local R2's ~500 puts/s within the seed's time; a body read is one
 * ranged get whatever the object's size).
 *
 * After each stage it measures, with the API worker's deployment bundle in workerd (local R2
 * under the same folder, PgBouncer in transaction mode as Hyperdrive's stand-in): the dashboard
 * routes on the largest and the median project, export rates (bodies from R2), the ingest
 * consumer statement's PostgreSQL CPU per stored call, and bytes per call in PostgreSQL and in
 * R2. Targets: list and detail p50 <= 50 ms, 30-day overview p50 <= 300 ms, export >= 20,000
 * rows/s, ingest CPU per call at 10M no worse than at 1M (warm, ./measure.ts). Writes bench/results/scale.md and .json.
 *
 * BENCH_R2_DIR puts local R2 elsewhere (e.g. /dev/shm/sightline-r2: in production R2 is not on
 * the database's disk, and this machine's disk holds 10M calls' PostgreSQL only). A stage runs
 * only when the disk holds it (see the stage loop).
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join, resolve } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { hashKey } from "../../src/auth/keys";
import type { Db } from "../../src/db/driver/client";
import { createKey } from "../../src/db/keys";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startPgBouncer } from "../../scripts/lib/pgbouncer";
import { startWorkerd } from "../../scripts/lib/workerd";
import { agent, type RouteResult } from "../lib/http-measure";
import { tableBytes, uuidv7At } from "../lib/seed-rows";
import { loadCorpus, prepareItem, withWord, type CorpusItem } from "./corpus";
import { RARE_AT, RARE_EVERY, RARE_WORD, zipfWeights, type ObjectStats, type StageShape } from "./generate";
import { measureExports, measureIngestCpu, measureRoutes, type ExportRun, type IngestCpu } from "./measure";
import { openR2Seeder } from "./r2-seeder";
import { relationBytes, type RelationBytes } from "./breakdown";
import { seedStage, type SeedSeconds } from "./seed";
import { writeReport } from "./report";

const STAGES = (process.env.BENCH_STAGES ?? "1000000,5000000,10000000").split(",").map(Number);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 1000);
const DAYS = Number(process.env.BENCH_DAYS ?? 90);
const BATCH_CALLS = Number(process.env.BENCH_BATCH_CALLS ?? 50_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 30);
const INGEST_CALLS = Number(process.env.BENCH_INGEST_CALLS ?? 20_000);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25602);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8793);
const SHARED_BUFFERS = process.env.BENCH_SHARED_BUFFERS ?? "2GB";
/** Where this run keeps PostgreSQL, local R2 and its results (BENCH_NAME lets two runs stand side by side). */
const NAME = process.env.BENCH_NAME ?? "scale";
const PG_DIR = `.data/bench-${NAME}-pg`;
const PERSIST = resolve(ROOT, process.env.BENCH_R2_DIR ?? `.wrangler/bench-${NAME}`);
const DAY = 86_400_000;
/**
 * Disk a stage needs beyond its rows, bytes: the WAL (max_wal_size 1 GB below, which a busy
 * COPY can overshoot about twice) and the sort files of one monthly partition's index build
 * (its largest index is about 1.7 GB at 10M calls).
 */
const HEADROOM = 4e9;
const RESULTS = join(ROOT, "bench/results");

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

/** What one stage measured. */
export interface StageResult {
  calls: number;
  scores: number;
  seed_seconds: SeedSeconds;
  r2: { objects: number; bytes: number; members: number; calls_with_r2_bodies: number; disk_bytes: number };
  pg_bytes: { llm_requests: number; safety_scores: number; rollups: number; body_objects: number; database: number };
  /** Heap, TOAST and each index, partitions summed under their parent. */
  relations: RelationBytes[];
  body_json_bytes_per_call: number;
  routes: RouteResult[];
  exports: ExportRun[];
  ingest: IngestCpu;
}

rmSync(join(ROOT, PG_DIR), { recursive: true, force: true });
rmSync(PERSIST, { recursive: true, force: true });
mkdirSync(PERSIST, { recursive: true });
/** Whether local R2 shares the database's filesystem (and so its free space). */
const r2OnDbDisk = statSync(PERSIST).dev === statSync(ROOT).dev;
const endMs = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const startMs = endMs - DAYS * DAY;
const server = await startEmbeddedPostgres({
  dir: PG_DIR,
  port: PG_PORT,
  ephemeral: true,
  // fsync is off, so a checkpoint is cheap: a small max_wal_size keeps the WAL's disk small.
  settings: { shared_buffers: SHARED_BUFFERS, max_wal_size: "1GB", checkpoint_timeout: "30min" },
});
const pgRoot = Number(readFileSync(join(ROOT, PG_DIR, "postmaster.pid"), "utf8").split("\n")[0]) || undefined;
const url = server.urlFor("sightline_bench_scale");
const stops: (() => Promise<void>)[] = [() => server.stop()];
const stages: StageResult[] = [];
/** Set when the disk could not hold the next stage (see the stage loop). */
let stoppedAt: { next: number; needed_bytes: number; free_bytes: number; bytes_per_call: number } | null = null;
/** Writes bench/results/scale.md and .json from the stages so far. */
const writeResults = () => {
  const report = {
    date: new Date().toISOString(),
    machine: `${cpus().length} cores, load average ${loadavg()[0]!.toFixed(1)} at the end; embedded PostgreSQL 18 (fsync off, shared_buffers ${SHARED_BUFFERS}); API bundle in workerd with local R2${r2OnDbDisk ? "" : ` (in ${PERSIST}, another filesystem than the database's)`}; PgBouncer transaction pool as Hyperdrive stand-in`,
    projects: PROJECTS,
    days: DAYS,
    batchCalls: BATCH_CALLS,
    samples: SAMPLES,
    stages,
    stoppedAt,
  };
  writeFileSync(join(RESULTS, `${NAME}.json`), `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(join(RESULTS, `${NAME}.md`), writeReport(report));
};
try {
  await ensureDatabase(server.serverUrl, "sightline_bench_scale", true);
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 6 });
  pool.on("error", () => {});
  stops.unshift(() => pool.end());
  const db = drizzle({ client: pool }) as unknown as Db;

  // Projects by rank, enterprise tier (no monthly limit), and an ingest key for the 100 largest.
  const projects = Array.from({ length: PROJECTS }, (_, r) => uuidv7At(startMs - DAY, r, 50));
  await pool.query(`INSERT INTO projects (id, name) SELECT id, 'scale ' || n FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, n)`, [projects]);
  await pool.query(
    `INSERT INTO subscriptions (project_id, tier, period_start_at, period_reset_at)
      SELECT id, 'enterprise', now(), now() + interval '30 days' FROM unnest($1::uuid[]) AS t(id)`,
    [projects],
  );
  const keyHashes: string[] = [];
  for (const projectId of projects.slice(0, 100)) {
    const key = await createKey(db, projectId, "scale bench");
    if (!key) throw new Error("createKey returned no key");
    keyHashes.push(await hashKey(key.key));
  }
  for (let m = startMs; m < endMs + 95 * DAY; m += 27 * DAY) {
    for (const table of ["llm_requests", "safety_scores"])
      await pool.query("SELECT sightline_create_month_partition($1, $2::timestamptz)", [table, new Date(m).toISOString()]);
  }
  const corpus = await loadCorpus(pool);
  log(`corpus: ${corpus.items.length} traffic calls prepared`);

  let from = 0;
  const r2Total: ObjectStats = { objects: 0, bytes: 0, members: 0, calls: 0, bodyObjectLines: [] };
  let jsonBytes = 0;
  for (const to of STAGES) {
    log(`stage: calls ${from} -> ${to}`);
    const rare = new Map<number, CorpusItem>();
    for (let i = from + ((RARE_AT - (from % RARE_EVERY) + RARE_EVERY) % RARE_EVERY); i < to; i += RARE_EVERY) {
      const raw = corpus.raw[i % corpus.raw.length]!;
      rare.set(i, await prepareItem(pool, withWord(raw.request_body as { messages?: { role: string; content: unknown }[] }, RARE_WORD), raw.response_body));
    }
    const shape: StageShape = { from, to, projects, zipf: zipfWeights(PROJECTS), startMs, endMs, window: BATCH_CALLS, items: corpus.items, rare };
    const r2 = await openR2Seeder(PERSIST);
    const client = await pool.connect();
    let seeded: Awaited<ReturnType<typeof seedStage>>;
    try {
      seeded = await seedStage(client, shape, r2, log);
    } finally {
      client.release();
      await r2.close();
    }
    for (const k of ["objects", "bytes", "members", "calls"] as const) r2Total[k] += seeded.objects[k];
    const avgJson = corpus.items.reduce((s, it) => s + it.json_bytes, 0) / corpus.items.length;
    jsonBytes = avgJson;

    const bytes = {
      llm_requests: await tableBytes(pool, "llm_requests"),
      safety_scores: await tableBytes(pool, "safety_scores"),
      rollups: (await tableBytes(pool, "request_rollups")) + (await tableBytes(pool, "score_rollups")),
      body_objects: await tableBytes(pool, "body_objects"),
      database: Number((await pool.query<{ b: string }>("SELECT pg_database_size(current_database())::bigint AS b")).rows[0]!.b),
    };
    const diskBytes = Number(execFileSync("du", ["-sb", PERSIST], { encoding: "utf8" }).split("\t")[0]);
    log(`sizes: PostgreSQL ${(bytes.database / 1e9).toFixed(2)} GB, R2 ${(r2Total.bytes / 1e9).toFixed(2)} GB in ${r2Total.objects} objects`);

    // Counted with the sizes, before the ingest measurement adds its calls.
    const counts = (await pool.query<{ r: string; s: string }>("SELECT (SELECT count(*) FROM llm_requests) r, (SELECT count(*) FROM safety_scores) s"))
      .rows[0]!;
    const ingest = await measureIngestCpu(pool, keyHashes, INGEST_CALLS, pgRoot);
    log(
      `ingest: ${ingest.pg_cpu_us_per_call} us PostgreSQL CPU per stored call warm (cold ${ingest.cold_pg_cpu_us_per_call}), ${ingest.calls_per_s.toFixed(0)} calls/s`,
    );

    const secret = randomBytes(32).toString("hex");
    const bouncer = await startPgBouncer({ target: url, port: PG_PORT + 1, poolSize: 8, dir: `.data/bench-${NAME}-pgbouncer` });
    const worker = await startWorkerd({
      config: "workers/api/wrangler.jsonc",
      port: API_PORT,
      hyperdrive: bouncer.url,
      vars: { INTERNAL_API_SECRET: secret },
      persistTo: PERSIST,
    });
    let routes: RouteResult[];
    let exports: ExportRun[];
    try {
      const target = {
        base: worker.url,
        headers: { "X-Internal-Secret": secret },
        endMs,
        largest: projects[0]!,
        median: projects[Math.floor(PROJECTS / 2)]!,
        samples: SAMPLES,
        log,
      };
      routes = await measureRoutes(pool, target);
      exports = await measureExports(target);
    } finally {
      agent.destroy();
      await worker.stop();
      await bouncer.stop();
    }
    stages.push({
      calls: Number(counts.r),
      scores: Number(counts.s),
      seed_seconds: seeded.seconds,
      r2: { objects: r2Total.objects, bytes: r2Total.bytes, members: r2Total.members, calls_with_r2_bodies: r2Total.calls, disk_bytes: diskBytes },
      pg_bytes: bytes,
      relations: await relationBytes(pool),
      body_json_bytes_per_call: jsonBytes,
      routes,
      exports,
      ingest,
    });
    writeResults();
    from = to;
    // The next stage runs only when the disk holds it: its calls at this stage's bytes per call
    // (PostgreSQL's, and R2's when it shares the disk; rollups make that an overestimate, they
    // grow with project-hours, not calls) and HEADROOM for WAL and index builds' sort files.
    const next = STAGES[STAGES.indexOf(to) + 1];
    const perCall = (bytes.database + (r2OnDbDisk ? r2Total.bytes : 0)) / Number(counts.r);
    const free = statfsSync(ROOT).bavail * statfsSync(ROOT).bsize;
    if (next && (next - to) * perCall + HEADROOM > free) {
      stoppedAt = { next, needed_bytes: (next - to) * perCall + HEADROOM, free_bytes: free, bytes_per_call: perCall };
      log(`stopping before ${next} calls: it needs about ${(stoppedAt.needed_bytes / 1e9).toFixed(0)} GB of disk, ${(free / 1e9).toFixed(0)} GB are free`);
      writeResults();
      break;
    }
  }
  console.log(readFileSync(join(RESULTS, `${NAME}.md`), "utf8"));
} finally {
  for (const stop of stops) await stop().catch(() => {});
}
