/**
 * Builds a worker exactly as `wrangler deploy` uploads it (`wrangler deploy --dry-run
 * --outdir`) and checks it against the Workers platform limits
 * (https://developers.cloudflare.com/workers/platform/limits/): script size after gzip 3 MiB on
 * the Free plan, 10 MiB on Paid; startup (evaluating the global scope) at most 1,000 ms, read
 * from a `wrangler check startup` CPU profile of the same config.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { redact, wrangler } from "./wrangler-cli";

/** Compressed (gzip) size limits of a Worker in bytes, by plan. */
export const SIZE_LIMITS = { free: 3 * 1024 * 1024, paid: 10 * 1024 * 1024 } as const;
/** Startup time limit of a Worker in ms. */
export const STARTUP_LIMIT_MS = 1000;

/** A V8 CPU profile as `wrangler check startup` writes it. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Startup of one profile: its duration, the non-idle CPU in it (ms), the top self-time functions. */
export interface StartupProfile {
  durationMs: number;
  busyMs: number;
  top: string[];
}

/** Reads a `wrangler check startup` profile (`outfile`). */
export function readStartupProfile(outfile: string): StartupProfile {
  const profile = JSON.parse(readFileSync(outfile, "utf8")) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const frame = byId.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const dt = profile.timeDeltas[i] ?? 0;
    busyUs += dt;
    const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop() ?? ""}:${frame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([fn, us]) => `${fn} ${(us / 1000).toFixed(1)} ms`);
  return { durationMs: (profile.endTime - profile.startTime) / 1000, busyMs: busyUs / 1000, top };
}

/**
 * Runs `wrangler check startup -c config` and reads its profile. The config goes to the inner
 * `wrangler deploy --dry-run` through `--args` as well: `-c` alone does not reach it, and that
 * build would take whatever wrangler config it finds in the working directory (or fail when the
 * root holds none). `config` must contain no space (`--args` is split on spaces).
 */
export async function profileStartup(config: string, outfile: string): Promise<StartupProfile> {
  const r = await wrangler(["check", "startup", "-c", config, `--args=--config ${config}`, "--outfile", outfile]);
  if (r.code !== 0) throw new Error(`wrangler check startup -c ${config} failed:\n${redact(r.stderr || r.stdout)}`);
  return readStartupProfile(outfile);
}

/** A built worker and its size. */
export interface BuiltBundle {
  outDir: string;
  /** Bytes of every uploaded module (source maps excluded), raw and gzipped one by one. */
  bytes: number;
  gzipBytes: number;
}

/** `wrangler deploy --dry-run --outdir outDir -c config`: the upload, built and measured. */
export async function buildBundle(config: string, outDir: string): Promise<BuiltBundle> {
  const r = await wrangler(["deploy", "--dry-run", "--outdir", outDir, "-c", config]);
  if (r.code !== 0) throw new Error(`wrangler deploy --dry-run -c ${config} failed:\n${redact(r.stderr || r.stdout)}`);
  let bytes = 0;
  let gzipBytes = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (!name.endsWith(".map") && name !== "README.md") {
        const data = readFileSync(path);
        bytes += data.length;
        gzipBytes += gzipSync(data).length;
      }
    }
  };
  walk(outDir);
  return { outDir, bytes, gzipBytes };
}

/** Size and startup of one worker against the limits of `plan`. */
export interface BundleCheck {
  worker: string;
  gzipBytes: number;
  limitBytes: number;
  startupMs: number;
  ok: boolean;
}

/** Builds, measures and profiles `config`; `ok` when both limits hold. */
export async function checkBundle(worker: string, config: string, outDir: string, plan: keyof typeof SIZE_LIMITS): Promise<BundleCheck> {
  const built = await buildBundle(config, outDir);
  const startup = await profileStartup(config, join(outDir, "..", `${worker}.cpuprofile`));
  const limitBytes = SIZE_LIMITS[plan];
  return { worker, gzipBytes: built.gzipBytes, limitBytes, startupMs: startup.busyMs, ok: built.gzipBytes <= limitBytes && startup.busyMs <= STARTUP_LIMIT_MS };
}
