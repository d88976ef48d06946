/**
 * `npm run bench:proxy -- --dev-stack`: the proxy inside the whole `npm run dev` stack (API +
 * scorer, sweep session, dashboard, embedded PostgreSQL; scripts/dev.ts), as a newcomer runs it,
 * with the bench's upstream as UPSTREAM_BASE_URL. Measures JSON TTFB (direct vs proxy,
 * alternating) and where the machine's CPU goes per proxied call, by process role, from
 * /proc (bench/lib/proc-cpu.ts) between two snapshots taken around the calls and 3 s after
 * them (the queued record is stored and scored meanwhile).
 *
 * Ports: SIGHTLINE_DEV_BENCH_PORT (default 18911) and the five after it; PostgreSQL on
 * SIGHTLINE_DEV_BENCH_PG_PORT (default 25612); data in a fresh temporary folder.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "../../scripts/lib/postgres";
import { cpuSnapshot, type CpuSnapshot } from "../lib/proc-cpu";

/** Roles of the dev stack's processes, in the order the results list them. */
const ROLES = [
  "proxy: dev front (workerd, wrangler's development proxy)",
  "proxy: worker runtime (workerd, with Miniflare's outbound worker and queue broker)",
  "proxy: wrangler (Node)",
  "API + scorer: workerd (both processes: log-records consumer, ingest, scoring)",
  "API + scorer: wrangler (Node)",
  "PostgreSQL (postmaster and backends)",
  "sweep session (workerd + wrangler)",
  "dashboard (wrangler pages dev: workerd + wrangler)",
  "npm run dev launcher (Node) and esbuild",
] as const;

type Role = (typeof ROLES)[number];

const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
  } catch {
    return "";
  }
};

/** The role of `pid`, from its command line and the wrangler session it belongs to. */
function roleOf(pid: number, snap: CpuSnapshot, proxyPort: number, apiPort: number): Role {
  const own = cmdline(pid);
  const session = (() => {
    for (let p: number | undefined = pid; p && p > 1; p = snap.get(p)?.ppid) {
      const c = cmdline(p);
      if (/wrangler(-dist\/cli\.js)? (pages )?dev/.test(c)) return c;
    }
    return "";
  })();
  if (own.includes("postgres") || snap.get(pid)?.name === "postgres") return ROLES[5];
  if (session.includes(`--port ${proxyPort}`)) {
    if (!own.includes("workerd")) return ROLES[2];
    return own.includes(`entry=127.0.0.1:${proxyPort}`) ? ROLES[0] : ROLES[1];
  }
  if (session.includes(`--port ${apiPort}`)) return own.includes("workerd") ? ROLES[3] : ROLES[4];
  if (session.includes("pages dev")) return ROLES[7];
  if (session) return ROLES[6];
  return ROLES[8];
}

function descendants(root: number, snap: CpuSnapshot): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [pid, s] of snap) {
      if (s.ppid === p) {
        out.push(pid);
        walk(pid);
      }
    }
  };
  walk(root);
  return out;
}

/** One TTFB row as bench/proxy/run.ts `ttfb` measures it. */
type TtfbFn = (
  direct: string,
  proxy: string,
  headers: Record<string, string>,
) => Promise<{ added_p50_ms: number; added_p99_ms: number; proxy_p50_ms: number; direct_p50_ms: number; samples: number }>;

/**
 * Starts `npm run dev` pointed at `upstream`, waits for its demo key, runs `ttfb` against its
 * proxy with that key (`warmup` pairs first), and returns the TTFB row and CPU ms per proxied
 * call by role (the warm-up calls counted).
 */
export async function measureDevStack(upstream: string, ttfb: TtfbFn, warmup: number) {
  const base = Number(process.env.SIGHTLINE_DEV_BENCH_PORT ?? 18_911);
  const [apiPort, proxyPort, stripePort, sweepPort, dashboardPort] = [0, 1, 2, 3, 4].map((k) => base + k) as [number, number, number, number, number];
  const dir = mkdtempSync(join(tmpdir(), "sightline-dev-bench-"));
  const env = {
    ...process.env,
    SIGHTLINE_API_PORT: String(apiPort),
    SIGHTLINE_PROXY_PORT: String(proxyPort),
    SIGHTLINE_STRIPE_PORT: String(stripePort),
    SIGHTLINE_SWEEP_PORT: String(sweepPort),
    SIGHTLINE_DASHBOARD_PORT: String(dashboardPort),
    SIGHTLINE_PG_PORT: process.env.SIGHTLINE_DEV_BENCH_PG_PORT ?? "25612",
    SIGHTLINE_DATA_DIR: join(dir, "data"),
    SIGHTLINE_PERSIST_DIR: join(dir, "state"),
    WRANGLER_REGISTRY_PATH: join(dir, "registry"),
    UPSTREAM_BASE_URL: upstream,
  };
  const dev = spawn(process.execPath, ["--import", "tsx", "scripts/dev.ts"], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  dev.stdout.on("data", (d: Buffer) => (out += d.toString()));
  dev.stderr.on("data", (d: Buffer) => (out += d.toString()));
  try {
    const deadline = Date.now() + 300_000;
    let key: string | undefined;
    while (!key) {
      if (dev.exitCode !== null) throw new Error(`npm run dev exited (${dev.exitCode}):\n${out.slice(-2000)}`);
      if (Date.now() > deadline) throw new Error(`npm run dev did not come up in 300 s:\n${out.slice(-2000)}`);
      if (out.includes("Ctrl-C stops everything")) key = /SERVICE_API_KEY=(slk_[0-9a-f]{48})/.exec(out)?.[1];
      await new Promise((r) => setTimeout(r, 500));
    }
    await new Promise((r) => setTimeout(r, 5_000)); // first-request compiles, dashboard build settle
    const proxy = `http://127.0.0.1:${proxyPort}`;
    const before = cpuSnapshot();
    const row = await ttfb(upstream, proxy, { "x-service-key": key });
    await new Promise((r) => setTimeout(r, 3_000));
    const after = cpuSnapshot();
    const calls = row.samples + warmup; // the warm-up pairs are proxied calls too
    const cpu = new Map<Role, number>(ROLES.map((r) => [r, 0]));
    for (const pid of descendants(dev.pid!, after)) {
      const ms = after.get(pid)!.ms - (before.get(pid)?.ms ?? 0);
      if (ms <= 0) continue;
      const role = roleOf(pid, after, proxyPort, apiPort);
      cpu.set(role, cpu.get(role)! + ms);
    }
    const perCall = Object.fromEntries([...cpu].map(([r, ms]) => [r, Math.round((ms / calls) * 100) / 100]));
    return { ttfb_json: row, proxied_calls: calls, cpu_ms_per_call: perCall };
  } finally {
    try {
      process.kill(-dev.pid!, "SIGINT");
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 8_000));
    try {
      process.kill(-dev.pid!, "SIGKILL");
    } catch {
      // stopped
    }
    for (const f of readdirSync(dir)) rmSync(join(dir, f), { recursive: true, force: true });
    rmSync(dir, { recursive: true, force: true });
  }
}
