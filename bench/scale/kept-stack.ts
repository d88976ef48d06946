/**
 * The stack of a kept `npm run bench:scale` database, for the tools that measure it again
 * without seeding (./remeasure.ts, ./export-profile.ts): its embedded PostgreSQL (pending
 * migrations applied), PgBouncer in transaction mode as Hyperdrive's stand-in, and the API
 * worker bundled from the current code in workerd over the same local R2, plus the largest and
 * median project by calls and the end of the seeded range.
 * Environment: BENCH_NAME, BENCH_PG_PORT, BENCH_API_PORT, BENCH_SHARED_BUFFERS, BENCH_R2_DIR, as for the run.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { applyMigrations, ROOT, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startPgBouncer } from "../../scripts/lib/pgbouncer";
import { startWorkerd } from "../../scripts/lib/workerd";
import { agent } from "../lib/http-measure";

/** A running kept stack: where the API listens, its headers, the two projects, the range's end (Unix ms). */
export interface KeptStack {
  base: string;
  headers: Record<string, string>;
  pool: pg.Pool;
  largest: string;
  median: string;
  endMs: number;
  /** The postmaster's pid (CPU of this server only, bench/lib/proc-cpu.ts). */
  pgRoot: number | undefined;
  stop(): Promise<void>;
}

/** Starts the kept stack; `inspectorPort` opens workerd's V8 inspector (CPU profiles). */
export async function startKeptStack(inspectorPort?: number): Promise<KeptStack> {
  const name = process.env.BENCH_NAME ?? "scale";
  const pgPort = Number(process.env.BENCH_PG_PORT ?? 25602);
  const server = await startEmbeddedPostgres({
    dir: `.data/bench-${name}-pg`,
    port: pgPort,
    ephemeral: true,
    settings: { shared_buffers: process.env.BENCH_SHARED_BUFFERS ?? "2GB" },
  });
  const url = server.urlFor("sightline_bench_scale");
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on("error", () => {}); // an idle client cut off when the server stops at the end
  const { rows } = await pool.query<{ project_id: string }>("SELECT project_id FROM request_rollups GROUP BY project_id ORDER BY sum(requests) DESC");
  const end = (await pool.query<{ end: string }>("SELECT max(created_at)::text AS end FROM llm_requests")).rows[0]!.end;
  const bouncer = await startPgBouncer({ target: url, port: pgPort + 1, poolSize: 8, dir: `.data/bench-${name}-pgbouncer` });
  const secret = randomBytes(32).toString("hex");
  const worker = await startWorkerd({
    config: "workers/api/wrangler.jsonc",
    port: Number(process.env.BENCH_API_PORT ?? 8793),
    hyperdrive: bouncer.url,
    vars: { INTERNAL_API_SECRET: secret },
    persistTo: process.env.BENCH_R2_DIR ?? `.wrangler/bench-${name}`,
    ...(inspectorPort ? { inspectorPort } : {}),
  });
  return {
    base: worker.url,
    headers: { "X-Internal-Secret": secret },
    pool,
    largest: rows[0]!.project_id,
    median: rows[Math.floor(rows.length / 2)]!.project_id,
    endMs: Math.ceil(new Date(end).getTime() / 3_600_000) * 3_600_000,
    pgRoot: Number(readFileSync(join(ROOT, `.data/bench-${name}-pg/postmaster.pid`), "utf8").split("\n")[0]) || undefined,
    async stop() {
      agent.destroy();
      await worker.stop();
      await bouncer.stop();
      await pool.end();
      await server.stop();
    },
  };
}
