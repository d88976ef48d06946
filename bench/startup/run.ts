/**
 * `npm run bench:startup`: startup CPU of each worker, i.e. evaluating its bundle's global
 * scope, which Cloudflare caps at 1,000 ms (Workers limits, "Worker startup time";
 * https://developers.cloudflare.com/workers/platform/limits/#worker-startup-time).
 *
 * Runs `wrangler check startup` for each wrangler.jsonc: it bundles the worker as `wrangler
 * deploy` does and records a V8 CPU profile of the startup phase in workerd. Reported per worker:
 * the profile's duration (endTime - startTime), the CPU time in it that is not idle, the three
 * functions with the most self time, and the bundle's size. workerd may leave part of
 * startup out of such a profile (cloudflare/workerd#6544), so read these as lower bounds.
 *
 * Writes bench/results/startup.md and bench/results/startup.json. Option (env):
 * BENCH_STARTUP_RUNS (default 5 profiles per worker; the median is reported).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { readStartupProfile, STARTUP_LIMIT_MS } from "../../scripts/lib/deploy/bundles";
import { bundleWorker } from "../../scripts/lib/workerd";
import { ROOT } from "../../scripts/lib/postgres";

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 5);
const WORKERS = [
  { name: "api", config: "workers/api/wrangler.jsonc" },
  { name: "proxy", config: "workers/proxy/wrangler.jsonc" },
  { name: "scorer", config: "workers/scorer/wrangler.jsonc" },
];

/** Duration, non-idle CPU (ms) and top self-time functions of one `wrangler check startup` profile. */
// `--args`: the inner `wrangler deploy --dry-run` of check startup does not get `-c` otherwise
// (scripts/lib/deploy/bundles.ts `profileStartup`).
function profileStartup(config: string, outfile: string) {
  const run = spawnSync("wrangler", ["check", "startup", "-c", config, `--args=--config ${config}`, "--outfile", outfile], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (run.status !== 0) throw new Error(`wrangler check startup -c ${config} failed:\n${run.stderr || run.stdout}`);
  return readStartupProfile(outfile);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const dir = join(ROOT, ".data/bench-startup");
mkdirSync(dir, { recursive: true });
const results = WORKERS.map(({ name, config }) => {
  const bundle = bundleWorker(config, join(ROOT, ".data/build", config.replace(/[^a-z0-9]+/gi, "-")));
  const code = readFileSync(bundle);
  const runs = Array.from({ length: RUNS }, (_, i) => profileStartup(config, join(dir, `${name}-${i}.cpuprofile`)));
  const busy = runs.map((r) => r.busyMs);
  const mid = runs[busy.indexOf(median(busy))]!;
  return {
    worker: name,
    config,
    bundle_kib: Math.round(statSync(bundle).size / 1024),
    bundle_gzip_kib: Math.round(gzipSync(code).length / 1024),
    profile_ms_median: median(runs.map((r) => r.durationMs)),
    busy_ms_median: median(busy),
    busy_ms_max: Math.max(...busy),
    top_self_time: mid.top,
  };
});

const date = new Date().toISOString();
writeFileSync(
  join(ROOT, "bench/results/startup.json"),
  JSON.stringify({ date, cpus: cpus().length, node: process.version, runs: RUNS, limit_ms: STARTUP_LIMIT_MS, results }, null, 2) + "\n",
);
const f = (n: number) => n.toFixed(1);
const md = `# Worker startup benchmark

\`npm run bench:startup\`, ${date}; ${cpus().length} CPUs, Node ${process.version}. ${RUNS} startup profiles per worker
(\`wrangler check startup\`), median reported. Limit: ${STARTUP_LIMIT_MS} ms of startup per Worker (Cloudflare Workers limits).

| worker | bundle (KiB) | gzip (KiB) | profile (ms, median) | CPU busy (ms, median) | CPU busy (ms, max) | most self time (median run) |
|---|---:|---:|---:|---:|---:|---|
${results.map((r) => `| ${r.worker} | ${r.bundle_kib} | ${r.bundle_gzip_kib} | ${f(r.profile_ms_median)} | **${f(r.busy_ms_median)}** | ${f(r.busy_ms_max)} | ${r.top_self_time.join("; ")} |`).join("\n")}

"CPU busy" is the profile's non-idle samples: evaluating the bundle's global scope (module
evaluation, top-level constants, schema construction). workerd may leave part of startup out of
such a profile (cloudflare/workerd#6544), so the figures are lower bounds; this machine's cores are
also slower than Cloudflare's.
`;
writeFileSync(join(ROOT, "bench/results/startup.md"), md);
console.log(md);
