/**
 * Runs one worker in workerd through Miniflare, without `wrangler dev`'s development front.
 * `wrangler dev` serves a worker through a second workerd process (its ProxyWorker, which holds
 * requests during reloads), which roughly doubles the per-request cost on this machine and
 * which production does not have. The benchmarks measure the workers both ways.
 * Miniflare itself puts an entry worker in front of every worker (it rewrites the request and
 * re-encodes the response: about 0.2 ms of CPU per request here); production has none either,
 * so `opts.port` is a direct socket to the worker (Miniflare's `unsafeDirectSockets`), and
 * Miniflare's own entry listens on a free port that nothing uses. Requests carry no `cf` object.
 *
 * The worker is bundled exactly as for deployment (`wrangler deploy --dry-run --outdir`); its
 * bindings come from its wrangler.jsonc (wrangler's `unstable_getMiniflareWorkerOptions`), with
 * the overrides given here. The Miniflare used is the one that ships with this wrangler, so the
 * workerd build is the one `wrangler dev` runs.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { join } from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { ROOT } from "./postgres";

type MiniflareModule = typeof import("miniflare");
const { Miniflare, convertV4MiniflareOptions } = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"))("miniflare") as MiniflareModule;

/** Options of `startWorkerd`. */
export interface WorkerdOptions {
  /** wrangler.jsonc of the worker, relative to the repository root. */
  config: string;
  port: number;
  /** Connection string for the HYPERDRIVE binding. */
  hyperdrive?: string;
  /** Extra or overriding `[vars]`. */
  vars?: Record<string, string>;
  /** Local state (queues), e.g. `.wrangler/bench`. */
  persistTo?: string;
  /** Port for the V8 inspector (CPU profiles: ws://127.0.0.1:<port>/core:user:main). */
  inspectorPort?: number;
  /** Service bindings replacing the wrangler.jsonc ones, e.g. `{ API: { external: { address, http: {} } } }`. */
  serviceBindings?: Record<string, unknown>;
}

/** A worker served by workerd on 127.0.0.1. */
export interface RunningWorkerd {
  url: string;
  stop(): Promise<void>;
}

/** Bundles the worker of `config` as `wrangler deploy` would; returns the entry module's path. */
export function bundleWorker(config: string, outDir: string): string {
  const out = spawnSync("wrangler", ["deploy", "--dry-run", "--outdir", outDir, "-c", config], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (out.status !== 0) throw new Error(`bundling ${config} failed:\n${out.stderr || out.stdout}`);
  return join(outDir, "index.js");
}

/** Bundles and starts the worker of `opts.config`; resolves once it listens. */
export async function startWorkerd(opts: WorkerdOptions): Promise<RunningWorkerd> {
  const outDir = join(ROOT, ".data/build", opts.config.replace(/[^a-z0-9]+/gi, "-"));
  const scriptPath = bundleWorker(opts.config, outDir);
  // Module rules serve unbundled sources; the bundle is one ES module.
  const { modulesRules: _rules, ...workerOptions } = unstable_getMiniflareWorkerOptions(join(ROOT, opts.config)).workerOptions;
  const persist = opts.persistTo ? join(ROOT, opts.persistTo) : undefined;
  const options = {
    host: "127.0.0.1",
    ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
    port: 0,
    ...(persist ? { defaultPersistRoot: persist } : {}),
    workers: [
      {
        ...workerOptions,
        name: "main",
        rootPath: ROOT, // module names are relative to it, and the bundle lives under .data/build
        modules: true,
        scriptPath,
        bindings: { ...(workerOptions.bindings ?? {}), ...opts.vars },
        ...(opts.hyperdrive ? { hyperdrives: { HYPERDRIVE: opts.hyperdrive } } : {}),
        ...(opts.serviceBindings ? { serviceBindings: opts.serviceBindings } : {}),
        unsafeDirectSockets: [{ host: "127.0.0.1", port: opts.port }],
      },
    ],
  };
  const mf = new Miniflare(convertV4MiniflareOptions(options as Parameters<typeof convertV4MiniflareOptions>[0]));
  await mf.ready;
  const url = (await mf.unsafeGetDirectURL("main")).origin;
  return { url, stop: () => mf.dispose() };
}
