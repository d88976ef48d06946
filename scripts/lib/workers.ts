/**
 * Runs the workers under `wrangler dev` (workerd) as child processes: the API + scorer in one
 * session (the scoring-jobs queue joins producer and consumer) and the proxy in another.
 * Used by `npm run dev`, the benchmarks and the integration tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { ROOT } from "./postgres";

/** Options of `startWorkers`. */
export interface WorkersOptions {
  databaseUrl: string;
  internalSecret: string;
  apiPort: number;
  /** Run the scorer next to the API (default true; benchmarks of the API alone turn it off). */
  withScorer?: boolean;
  /** Omit to run without the proxy. */
  proxyPort?: number;
  /** Extra `[vars]` for the API worker, e.g. `{ TIER_LIMITS: '{"free":50}' }`. */
  vars?: Record<string, string>;
  /** Extra `[vars]` for the proxy worker, e.g. `{ UPSTREAM_BASE_URL: "http://127.0.0.1:9999" }`. */
  proxyVars?: Record<string, string>;
  /**
   * Local state directory (queues, caches); separate runs should not share one. It also holds
   * the run's own dev registry (unless WRANGLER_REGISTRY_PATH is set), so that this stack's
   * proxy binds to this stack's API and not to another `sightline-api` running on the machine.
   */
  persistTo?: string;
  /** Pass wrangler's output through (dev) or keep it quiet (tests, benchmarks). */
  quiet?: boolean;
  /** Called when a worker process exits on its own. */
  onExit?: (what: string, code: number | null) => void;
}

/** Running workers. */
export interface RunningWorkers {
  apiUrl: string;
  proxyUrl?: string;
  stop(): Promise<void>;
}

const varArgs = (vars: Record<string, string> = {}) => Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);

async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler exited (${child.exitCode}) before ${url} answered`);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

/** Starts the workers and resolves once each answers HTTP. */
export async function startWorkers(opts: WorkersOptions): Promise<RunningWorkers> {
  const env = {
    ...process.env,
    INTERNAL_API_SECRET: opts.internalSecret,
    CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: opts.databaseUrl,
    DATABASE_URL: "", // the workers must use Hyperdrive (pg), not the Neon driver
    WRANGLER_SEND_METRICS: "false",
    ...(opts.persistTo && !process.env.WRANGLER_REGISTRY_PATH
      ? { WRANGLER_REGISTRY_PATH: join(ROOT, opts.persistTo, "registry") }
      : {}),
  };
  const stdio = opts.quiet ? (["ignore", "ignore", "pipe"] as const) : (["ignore", "inherit", "inherit"] as const);
  const persist = opts.persistTo ? ["--persist-to", opts.persistTo] : [];
  const common = ["--ip", "127.0.0.1", "--show-interactive-dev-session=false", "--log-level", opts.quiet ? "error" : "info", ...persist];
  const children: [string, ChildProcess][] = [];
  const spawnWrangler = (what: string, args: string[]) => {
    const child = spawn("wrangler", ["dev", ...args, ...common], { cwd: ROOT, env, stdio: [...stdio] });
    if (opts.quiet) child.stderr?.on("data", (d: Buffer) => process.stderr.write(d));
    child.on("exit", (code) => opts.onExit?.(what, code));
    children.push([what, child]);
    return child;
  };
  const stop = async () => {
    await Promise.all(children.map(([, c]) => stopChild(c)));
  };
  try {
    const scorer = opts.withScorer === false ? [] : ["-c", "workers/scorer/wrangler.jsonc"];
    // --var wins over .dev.vars, which would otherwise shadow the environment's secret.
    const apiVars = { INTERNAL_API_SECRET: opts.internalSecret, ...opts.vars };
    const api = spawnWrangler("api+scorer", ["-c", "wrangler.jsonc", ...scorer, "--port", String(opts.apiPort), ...varArgs(apiVars)]);
    const apiUrl = `http://127.0.0.1:${opts.apiPort}`;
    await waitFor(`${apiUrl}/openapi.json`, api, 120_000);
    if (opts.proxyPort === undefined) return { apiUrl, stop };
    const proxy = spawnWrangler("proxy", ["-c", "workers/proxy/wrangler.jsonc", "--port", String(opts.proxyPort), ...varArgs(opts.proxyVars)]);
    const proxyUrl = `http://127.0.0.1:${opts.proxyPort}`;
    await waitFor(proxyUrl, proxy, 120_000);
    return { apiUrl, proxyUrl, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
