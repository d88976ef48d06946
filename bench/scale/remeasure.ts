/**
 * The measurements of `npm run bench:scale` again, without seeding: against the database and
 * local R2 a previous run left (./kept-stack.ts; BENCH_SAMPLES as for the run), with the API
 * worker bundled from the current code, so a change can be measured at 5M calls in minutes
 * instead of a 40-minute seed. Prints the routes and exports as tables, and the ingest
 * statement's PostgreSQL CPU per call over the projects' keys (BENCH_INGEST_CALLS, default
 * 20,000; the calls stay in the database); writes nothing else.
 * `npx tsx bench/scale/remeasure.ts`.
 */
import { startKeptStack } from "./kept-stack";
import { measureExports, measureIngestCpu, measureRoutes } from "./measure";

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);
const stack = await startKeptStack();
try {
  const target = { ...stack, samples: Number(process.env.BENCH_SAMPLES ?? 30), log };
  const routes = await measureRoutes(stack.pool, target);
  const exports = await measureExports(target);
  const keys = await stack.pool.query<{ key_hash: string }>("SELECT key_hash FROM api_keys ORDER BY created_at LIMIT 100");
  const ingest = await measureIngestCpu(
    stack.pool,
    keys.rows.map((k) => k.key_hash),
    Number(process.env.BENCH_INGEST_CALLS ?? 20_000),
    stack.pgRoot,
  );
  console.log(
    [
      "",
      "| Route | p50 ms | p95 ms | rows |",
      "|---|---:|---:|---:|",
      ...routes.map((r) => `| ${r.name} | ${r.p50_ms.toFixed(1)} | ${r.p95_ms.toFixed(1)} | ${r.rows ?? ""} |`),
    ].join("\n"),
  );
  console.log(
    [
      "",
      "| Export | rows | seconds | rows/s | MB |",
      "|---|---:|---:|---:|---:|",
      ...exports.map((e) => `| ${e.name} | ${e.rows} | ${e.seconds.toFixed(1)} | ${e.rows_per_s.toFixed(0)} | ${e.mb.toFixed(1)} |`),
    ].join("\n"),
  );
  console.log(`\ningest: ${ingest.pg_cpu_us_per_call} us PostgreSQL CPU per stored call, ${ingest.calls_per_s.toFixed(0)} calls/s (${ingest.calls} calls)`);
} finally {
  await stack.stop();
}
