/**
 * Where the export's CPU goes in the API worker, against a database and local R2 that
 * `npm run bench:scale` left behind (./kept-stack.ts): starts the API bundle in workerd with its V8
 * inspector open, records a CPU profile (Chrome DevTools Protocol,
 * `Profiler.start`/`stop`) over EXPORT_ROUNDS exports of the largest project's last EXPORT_DAYS
 * days, and prints self time by function (top 25) and by source file, and the CPU each process
 * of the machine spent per exported row (workerd, PostgreSQL, PgBouncer, this client: on two
 * cores, which of them bounds the rate).
 * `npx tsx bench/scale/export-profile.ts`.
 */
import WebSocket from "ws";
import { countLines } from "../lib/count-lines";
import { cpuPerRequest, cpuSnapshot } from "../lib/proc-cpu";
import { agent } from "../lib/http-measure";
import { startKeptStack } from "./kept-stack";

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

const stack = await startKeptStack(INSPECTOR);
try {
  const projectId = stack.largest;
  const end = stack.endMs;
  const path = `/api/requests/export?project_id=${projectId}&format=jsonl&start=${new Date(end - DAYS * 86_400_000).toISOString()}&end=${new Date(end).toISOString()}`;
  const headers = stack.headers;
  await countLines(agent, stack.base + path, headers); // warm-up
  /** ROUNDS exports, each printed; the rows and milliseconds of all. */
  const rounds = async (label: string) => {
    let rows = 0;
    let ms = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const r = await countLines(agent, stack.base + path, headers);
      rows += r.lines;
      ms += r.ms;
      console.log(
        `export (${label}): ${r.lines} rows in ${(r.ms / 1000).toFixed(2)} s = ${(r.lines / (r.ms / 1000)).toFixed(0)} rows/s, ${(r.bytes / 1e6).toFixed(1)} MB`,
      );
    }
    return { rows, ms };
  };
  // Without the profiler first: the CPU each process spends per row, and the wall time per row.
  const before = cpuSnapshot();
  const plain = await rounds("no profiler");
  const cpu = cpuPerRequest(before, cpuSnapshot(), plain.rows, ["workerd", "postgres", "pgbouncer", "load generator"], { postgres: stack.pgRoot });
  console.log(`CPU per row, us: ${JSON.stringify(cpu)}; wall ${((1000 * plain.ms) / plain.rows).toFixed(1)} us per row`);
  const ws = new WebSocket(`ws://127.0.0.1:${INSPECTOR}/core:user:main`);
  await new Promise((r) => ws.once("open", r));
  await command(ws, 1, "Profiler.enable");
  await command(ws, 2, "Profiler.setSamplingInterval", { interval: 200 });
  await command(ws, 3, "Profiler.start");
  await rounds("profiled");
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
  await stack.stop();
}
