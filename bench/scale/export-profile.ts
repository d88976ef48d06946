/**
 * Where the export's CPU goes in the API worker, against a database and local R2 that
 * `npm run bench:scale` left behind (BENCH_NAME, BENCH_PG_PORT as for that run): starts the API
 * bundle in workerd with its V8 inspector open, records a CPU profile (Chrome DevTools Protocol,
 * `Profiler.start`/`stop`) over EXPORT_ROUNDS exports of the largest project's last EXPORT_DAYS
 * days, and prints self time by function (top 25) and by source file.
 * `npx tsx bench/scale/export-profile.ts`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import WebSocket from "ws";
import { startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startPgBouncer } from "../../scripts/lib/pgbouncer";
import { startWorkerd } from "../../scripts/lib/workerd";
import { countLines } from "../lib/count-lines";
import { agent } from "../lib/http-measure";

const NAME = process.env.BENCH_NAME ?? "scale";
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 55602);
const API_PORT = Number(process.env.BENCH_API_PORT ?? 8793);
const INSPECTOR = Number(process.env.EXPORT_INSPECTOR ?? 9239);
const ROUNDS = Number(process.env.EXPORT_ROUNDS ?? 3);
const DAYS = Number(process.env.EXPORT_DAYS ?? 3);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

/** Sends one CDP command and resolves with its result. */
function command(ws: WebSocket, id: number, method: string, params: object = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onMessage = (data: WebSocket.RawData) => {
      const msg = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
      if (msg.id !== id) return;
      ws.off("message", onMessage);
      if (msg.error) reject(new Error(JSON.stringify(msg.error)));
      else resolve(msg.result);
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ id, method, params }));
  });
}

const server = await startEmbeddedPostgres({ dir: `.data/bench-${NAME}-pg`, port: PG_PORT, ephemeral: true });
const url = server.urlFor("sightline_bench_scale");
const bouncer = await startPgBouncer({ target: url, port: PG_PORT + 1, poolSize: 8, dir: `.data/bench-${NAME}-pgbouncer` });
const secret = randomBytes(32).toString("hex");
const worker = await startWorkerd({
  config: "workers/api/wrangler.jsonc",
  port: API_PORT,
  hyperdrive: bouncer.url,
  vars: { INTERNAL_API_SECRET: secret },
  persistTo: `.wrangler/bench-${NAME}`,
  inspectorPort: INSPECTOR,
});
try {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const { rows } = await pool.query<{ project_id: string; end: string }>(
    "SELECT project_id, max(created_at)::text AS end FROM llm_requests GROUP BY project_id ORDER BY count(*) DESC LIMIT 1",
  );
  await pool.end();
  const projectId = rows[0]!.project_id;
  const end = new Date(rows[0]!.end).getTime() + 1;
  const path = `/api/requests/export?project_id=${projectId}&format=jsonl&start=${new Date(end - DAYS * 86_400_000).toISOString()}&end=${new Date(end).toISOString()}`;
  const headers = { "X-Internal-Secret": secret };
  await countLines(agent, worker.url + path, headers); // warm-up
  const ws = new WebSocket(`ws://127.0.0.1:${INSPECTOR}/core:user:main`);
  await new Promise((r) => ws.once("open", r));
  await command(ws, 1, "Profiler.enable");
  await command(ws, 2, "Profiler.setSamplingInterval", { interval: 200 });
  await command(ws, 3, "Profiler.start");
  for (let i = 0; i < ROUNDS; i++) {
    const r = await countLines(agent, worker.url + path, headers);
    console.log(`export: ${r.lines} rows in ${(r.ms / 1000).toFixed(2)} s = ${(r.lines / (r.ms / 1000)).toFixed(0)} rows/s, ${(r.bytes / 1e6).toFixed(1)} MB`);
  }
  const { profile } = (await command(ws, 4, "Profiler.stop")) as { profile: { nodes: ProfileNode[]; samples: number[] } };
  ws.close();
  const total = profile.samples.length;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const id of profile.samples) {
    const n = nodes.get(id)!;
    const fn = `${n.callFrame.functionName || "(anonymous)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
    const file = n.callFrame.url.split("/").pop() || n.callFrame.functionName;
    byFile.set(file, (byFile.get(file) ?? 0) + 1);
  }
  const top = (m: Map<string, number>, k: number) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, k)
      .map(([name, n]) => `${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`);
  console.log(`\n${total} samples; self time by function:\n${top(byFunction, 25).join("\n")}\n\nby file:\n${top(byFile, 10).join("\n")}`);
} finally {
  agent.destroy();
  await worker.stop();
  await bouncer.stop();
  await server.stop();
}
