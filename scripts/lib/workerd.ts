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
import { spawn, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { ROOT } from "./postgres";
import { stopChild, waitFor } from "./workers";

type MiniflareModule = typeof import("miniflare");
/** `require` as wrangler resolves: its own Miniflare, and that Miniflare's workerd. */
const wranglerRequire = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json"));
const { Miniflare, convertV4MiniflareOptions } = wranglerRequire("miniflare") as MiniflareModule;

/** Options of `startWorkerd`. */
export interface WorkerdOptions {
  /** wrangler.jsonc of the worker, relative to the repository root. */
  config: string;
  port: number;
  /** Connection string for the HYPERDRIVE binding. */
  hyperdrive?: string;
  /** Extra or overriding `[vars]`. */
  vars?: Record<string, string>;
  /** Local state (queues, R2 buckets), e.g. `.wrangler/bench` (relative to the repository, or absolute): Miniflare's `resourcePersistencePath`. */
  persistTo?: string;
  /** Port for the V8 inspector (CPU profiles: ws://127.0.0.1:<port>/core:user:main). */
  inspectorPort?: number;
  /** Service bindings replacing the wrangler.jsonc ones, e.g. `{ API: { external: { address, http: {} } } }`. */
  serviceBindings?: Record<string, unknown>;
}

/** A worker served by workerd on 127.0.0.1. */
export interface RunningWorkerd {
  url: string;
  /** The workerd process, when this module spawned it itself (`startWorkerdDirect`). */
  pid?: number;
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
  const persist = opts.persistTo ? resolve(ROOT, opts.persistTo) : undefined;
  const options = {
    host: "127.0.0.1",
    ...(opts.inspectorPort ? { inspectorPort: opts.inspectorPort } : {}),
    port: 0,
    ...(persist ? { resourcePersistencePath: persist } : {}),
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

/** Options of `startWorkerdDirect`. */
export interface DirectWorkerdOptions {
  /** wrangler.jsonc of the worker, relative to the repository root. */
  config: string;
  port: number;
  /** Extra `[vars]` (text bindings). */
  vars?: Record<string, string>;
  /** Service bindings to external HTTP addresses (`host:port`), e.g. `{ API: "127.0.0.1:8787" }`. */
  externalServices?: Record<string, string>;
}

/** A worker that accepts and drops what it is sent: the local end of queue producers (and R2). */
const SINK_WORKER = `export default {
  async fetch(request) {
    await request.arrayBuffer();
    return Response.json({ metadata: { metrics: { backlogCount: 0, backlogBytes: 0, oldestMessageTimestamp: 0 } } });
  },
};
`;

/**
 * Runs the deployment bundle of a worker in workerd from a config written here, with no Miniflare
 * service at all. Miniflare routes every subrequest of a worker through an outbound worker of its
 * own (JavaScript that copies the headers and fetches again, `miniflare/.../outbound.worker.js`),
 * which Cloudflare's runtime does not have; here the worker's `globalOutbound` is workerd's own
 * network service (public, private and local addresses allowed), as in production.
 * Queue producers and R2 buckets are bound to a sink worker that accepts and drops every message
 * (production: an RPC to the Queues service, off the worker's isolate); an R2 put is answered
 * with no object metadata, so a record that needs R2 is reported as not queued. Service bindings
 * go to `externalServices` (unbound ones are left out). Compatibility date and flags come from
 * the worker's wrangler.jsonc. Resolves once the socket answers.
 */
export async function startWorkerdDirect(opts: DirectWorkerdOptions): Promise<RunningWorkerd> {
  const outDir = join(ROOT, ".data/build", `${opts.config.replace(/[^a-z0-9]+/gi, "-")}-direct`);
  bundleWorker(opts.config, outDir);
  const w = unstable_getMiniflareWorkerOptions(join(ROOT, opts.config)).workerOptions as {
    compatibilityDate?: string;
    compatibilityFlags?: string[];
    queueProducers?: Record<string, unknown>;
    r2Buckets?: Record<string, unknown>;
  };
  writeFileSync(join(outDir, "sink.js"), SINK_WORKER);
  const text = (s: string) => JSON.stringify(s);
  const bindings = [
    ...Object.entries(opts.vars ?? {}).map(([name, value]) => `(name = ${text(name)}, text = ${text(value)})`),
    ...Object.keys(opts.externalServices ?? {}).map((name) => `(name = ${text(name)}, service = ${text(`ext-${name}`)})`),
    ...Object.keys(w.queueProducers ?? {}).map((name) => `(name = ${text(name)}, queue = "sink")`),
    ...Object.keys(w.r2Buckets ?? {}).map((name) => `(name = ${text(name)}, r2Bucket = "sink")`),
  ];
  const externals = Object.entries(opts.externalServices ?? {}).map(
    ([name, address]) => `(name = ${text(`ext-${name}`)}, external = (address = ${text(address)}, http = ()))`,
  );
  const capnp = `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .main),
    (name = "sink", worker = .sink),
    (name = "internet", network = (allow = ["public", "private", "local"])),
    ${externals.join(",\n    ")}
  ],
  sockets = [(name = "http", address = ${text(`127.0.0.1:${opts.port}`)}, http = (), service = "main")],
);
const main :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${text(w.compatibilityDate ?? "2026-11-01")},
  compatibilityFlags = [${(w.compatibilityFlags ?? []).map(text).join(", ")}],
  bindings = [${bindings.join(", ")}],
);
const sink :Workerd.Worker = (
  modules = [(name = "sink.js", esModule = embed "sink.js")],
  compatibilityDate = ${text(w.compatibilityDate ?? "2026-11-01")},
);
`;
  const configPath = join(outDir, "direct.capnp");
  writeFileSync(configPath, capnp);
  const binary = (createRequire(wranglerRequire.resolve("miniflare/package.json"))("workerd") as { default: string }).default;
  const child = spawn(binary, ["serve", configPath, "--experimental"], { cwd: outDir, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const url = `http://127.0.0.1:${opts.port}`;
  try {
    await waitFor(`${url}/`, child, 30_000);
  } catch (err) {
    await stopChild(child);
    throw new Error(`workerd (${configPath}): ${(err as Error).message}\n${stderr.slice(0, 2000)}`);
  }
  return { url, pid: child.pid, stop: () => stopChild(child) };
}
