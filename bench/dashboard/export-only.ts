/**
 * The export part of `npm run bench:dashboard` alone, against the database a previous
 * bench:dashboard run left in `.data/bench-dashboard-pg` (same BENCH_PG_PORT/BENCH_API_PORT/
 * BENCH_SHARED_BUFFERS variables): no reseed, so an export change can be measured in a minute.
 * `npx tsx bench/dashboard/export-only.ts` prints, per round, the rows/s of the JSONL and CSV
 * exports (the last 3 days of the seed, through workerd and PgBouncer, as the bench does) and
 * the load average. EXPORT_ROUNDS (default 2) rounds; EXPORT_INSPECTOR=<port> opens workerd's
 * V8 inspector for a CPU profile.
 */
import http from "node:http";
import { loadavg } from "node:os";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startPgBouncer } from "../../scripts/lib/pgbouncer";
import { startWorkerd } from "../../scripts/lib/workerd";
import { countLines } from "../lib/count-lines";

const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25592);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8791);
const ROUNDS = Number(process.env.EXPORT_ROUNDS ?? 2);
const SHARED_BUFFERS = process.env.BENCH_SHARED_BUFFERS;
const END = Date.UTC(2026, 10, 20);
const day = 86_400_000;

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const server = await startEmbeddedPostgres({
  dir: ".data/bench-dashboard-pg",
  port: PG_PORT,
  ephemeral: true,
  settings: SHARED_BUFFERS ? { shared_buffers: SHARED_BUFFERS } : {},
});
const stops: (() => Promise<void>)[] = [() => server.stop()];
try {
  const url = server.urlFor("sightline_bench_dashboard");
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  stops.unshift(() => pool.end());
  const projectId = (await pool.query<{ id: string }>("SELECT id FROM projects WHERE name = 'bench dashboard'")).rows[0]!.id;
  const bouncer = await startPgBouncer({ target: url, port: PG_PORT + 1, poolSize: 8, dir: ".data/bench-dashboard-pgbouncer" });
  stops.unshift(() => bouncer.stop());
  const secret = randomBytes(32).toString("hex");
  const inspector = process.env.EXPORT_INSPECTOR ? Number(process.env.EXPORT_INSPECTOR) : undefined;
  const worker = await startWorkerd({
    config: "workers/api/wrangler.jsonc",
    port: API_PORT,
    hyperdrive: bouncer.url,
    vars: { INTERNAL_API_SECRET: secret },
    persistTo: ".wrangler/bench-dashboard",
    ...(inspector ? { inspectorPort: inspector } : {}),
  });
  stops.unshift(() => worker.stop());
  const headers = { "X-Internal-Secret": secret };
  const iso = (ms: number) => new Date(ms).toISOString();
  if (process.env.EXPORT_WAIT) {
    console.log(`worker at ${worker.url}, project ${projectId}; waiting ${process.env.EXPORT_WAIT} s`);
    await new Promise((r) => setTimeout(r, Number(process.env.EXPORT_WAIT) * 1000));
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const format of ["jsonl", "csv"]) {
      const r = await countLines(
        agent,
        `${worker.url}/api/requests/export?project_id=${projectId}&format=${format}&start=${iso(END - 3 * day)}&end=${iso(END)}`,
        headers,
      );
      if (r.status !== 200) throw new Error(`export ${format}: ${r.status}`);
      const rows = format === "csv" ? r.lines - 1 : r.lines;
      console.log(
        `round ${round} ${format}: ${rows} rows in ${(r.ms / 1000).toFixed(2)} s = ${Math.round(rows / (r.ms / 1000))} rows/s, ${(r.bytes / 1e6).toFixed(1)} MB, load ${loadavg()
          .map((x) => x.toFixed(2))
          .join(" ")}`,
      );
    }
  }
} finally {
  agent.destroy();
  for (const stop of stops) await stop().catch(() => {});
}
