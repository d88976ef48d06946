/**
 * Runs the workers under `wrangler dev` (workerd) as child processes: the API + scorer in one
 * session (the scoring-jobs queue joins producer and consumer), the proxy in another, and
 * optionally a scorer session of its own whose scheduled handler (the sweep that cron runs in
 * production) is triggered on a timer. Used by `npm run dev`, the benchmarks and the
 * integration tests.
 *
 * Secrets never appear in a command line (`ps`): they reach wrangler through the child's
 * environment, which wrangler reads for the secrets a config declares (`secrets.required`,
 * wrangler's getVarsForDev). The API runs from a generated copy of wrangler.jsonc (under the
 * persist directory, mode 0600) carrying the run's variables and the names of its secrets.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { isAbsolute, join } from "node:path";
import { ROOT } from "./postgres";
import { configOf, readWorkerConfig, writeGeneratedConfig } from "./wrangler-config";

/**
 * The devtools inspector port of the `wrangler dev` session serving `port`: port + 10,000, fixed.
 * Left to itself, wrangler takes 9229 when it looks free, else a port get-port finds free: two
 * sessions starting at once (a test's stack beside another suite's) can both pick the same one,
 * and the second fails ("Address already in use (socket "direct:1:default")", its
 * InspectorProxyWorker's socket; a CI run's browser suite failed so). Stays below Linux's
 * ephemeral range for our ports (all below 22768; docs/testing.md).
 */
export const inspectorPortFor = (port: number): number => port + 10_000;

/** Secrets the API worker reads when set (workers/api/src/env.ts); passed through the environment only. */
export const API_SECRETS = ["INTERNAL_API_SECRET", "STRIPE_SECRET_KEY", "PAYMENT_WEBHOOK_SECRET"] as const;

/** Options of `startWorkers`. */
export interface WorkersOptions {
  databaseUrl: string;
  internalSecret: string;
  apiPort: number;
  /** Run the scorer next to the API (default true; benchmarks of the API alone turn it off). */
  withScorer?: boolean;
  /** Omit to run without the proxy. */
  proxyPort?: number;
  /**
   * Extra variables for the API worker, e.g. `{ TIER_LIMITS: '{"free":50}' }`. Names in
   * API_SECRETS become secrets (hidden in wrangler's output, never on a command line).
   */
  vars?: Record<string, string>;
  /**
   * Extra `vars` for the scorer worker (its sessions run from a generated copy of
   * workers/scorer/wrangler.jsonc), e.g. `{ WEBHOOK_ALLOW_LOOPBACK: "true" }` under `npm run dev`.
   */
  scorerVars?: Record<string, string>;
  /** Extra `[vars]` for the proxy worker, e.g. `{ UPSTREAM_BASE_URL: "http://127.0.0.1:9999" }`. */
  proxyVars?: Record<string, string>;
  /**
   * Run the sweep every `everyMs` (default 60 s) by calling the scheduled handler of a scorer
   * session of its own on `port` (wrangler's /cdn-cgi/handler/scheduled). The API session's
   * port cannot do it: there the scheduled event reaches the API, which has no handler. That
   * session's R2 is its own, so its cron leaves the body objects alone (`BODY_UPKEEP=false`)
   * and the same timer calls the API's POST /internal/bodies/upkeep instead (src/upkeep/bodies.ts).
   */
  sweep?: { port: number; everyMs?: number; onResult?: (line: string) => void };
  /**
   * Local state directory (queues, caches); separate runs should not share one. It also holds
   * the run's own dev registry (unless WRANGLER_REGISTRY_PATH is set), so that this stack's
   * proxy binds to this stack's API and not to another `sightline-api` running on the machine.
   * Default `.wrangler/state` (`npm run dev` passes `.data/wrangler`).
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
  /** The scorer session whose scheduled handler the sweep timer calls. */
  sweepUrl?: string;
  stop(): Promise<void>;
}

const varArgs = (vars: Record<string, string> = {}) => Object.entries(vars).flatMap(([k, v]) => ["--var", `${k}:${v}`]);

/** Resolves once `url` answers HTTP; throws when `child` exits first or after `timeoutMs`. */
export async function waitFor(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
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

/** SIGINT to `child`, SIGKILL after 5 s; resolves once it exited. */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    child.kill("SIGINT");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

/**
 * Writes the API's dev config: wrangler.jsonc with `vars` overridden by the run's non-secret
 * variables and `secrets.required` naming the secrets given (their values stay in the env).
 */
function apiDevConfig(dir: string, vars: Record<string, string>, secrets: string[]): string {
  return writeGeneratedConfig(configOf("api"), join(dir, "api.jsonc"), (config) => ({
    ...config,
    vars: { ...config.vars, ...vars },
    secrets: { required: [...new Set([...(config.secrets?.required ?? []), ...secrets])] },
  }));
}

/** Writes the scorer's dev config: workers/scorer/wrangler.jsonc with `vars` overridden. */
function scorerDevConfig(dir: string, vars: Record<string, string>): string {
  return writeGeneratedConfig(configOf("scorer"), join(dir, "scorer.jsonc"), (config) => ({ ...config, vars: { ...config.vars, ...vars } }));
}

/** The scorer's first cron expression (what production's trigger sends as `controller.cron`). */
const scorerCron = (): string => readWorkerConfig(configOf("scorer")).triggers?.crons?.[0] ?? "*/2 * * * *";

/** Starts the workers and resolves once each answers HTTP. */
export async function startWorkers(opts: WorkersOptions): Promise<RunningWorkers> {
  const persistTo = opts.persistTo || ".wrangler/state";
  const persistAbs = isAbsolute(persistTo) ? persistTo : join(ROOT, persistTo);
  const given = { INTERNAL_API_SECRET: opts.internalSecret, ...opts.vars };
  const secretValues = Object.fromEntries(Object.entries(given).filter(([k]) => (API_SECRETS as readonly string[]).includes(k)));
  const plainVars = Object.fromEntries(Object.entries(given).filter(([k]) => !(k in secretValues)));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Only the secrets the generated config names are read from here (wrangler's getVarsForDev).
    ...secretValues,
    CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: opts.databaseUrl,
    DATABASE_URL: "", // the workers must use Hyperdrive (pg), not the Neon driver
    WRANGLER_SEND_METRICS: "false",
    ...(!process.env.WRANGLER_REGISTRY_PATH ? { WRANGLER_REGISTRY_PATH: join(persistAbs, "registry") } : {}),
  };
  // Secrets of the developer's shell that this run does not set must not leak into the API.
  for (const name of API_SECRETS) if (!(name in secretValues)) delete env[name];
  const stdio = opts.quiet ? (["ignore", "ignore", "pipe"] as const) : (["ignore", "inherit", "inherit"] as const);
  const common = (quiet: boolean, persist: string, level: string) => [
    "--ip",
    "127.0.0.1",
    "--show-interactive-dev-session=false",
    "--log-level",
    quiet ? "error" : level,
    "--persist-to",
    persist,
  ];
  const children: [string, ChildProcess][] = [];
  let timer: NodeJS.Timeout | undefined;
  const spawnWrangler = (
    what: string,
    port: number,
    args: string[],
    extra: { quiet?: boolean; env?: NodeJS.ProcessEnv; persist?: string; level?: string } = {},
  ) => {
    const quiet = extra.quiet ?? !!opts.quiet;
    const io = quiet ? (["ignore", "ignore", "pipe"] as const) : stdio;
    const ports = ["--port", String(port), "--inspector-port", String(inspectorPortFor(port))];
    const child = spawn("wrangler", ["dev", ...args, ...ports, ...common(quiet, extra.persist ?? persistAbs, extra.level ?? "info")], {
      cwd: ROOT,
      env: extra.env ?? env,
      stdio: [...io],
    });
    if (quiet) child.stderr?.on("data", (d: Buffer) => process.stderr.write(d));
    child.on("exit", (code) => opts.onExit?.(what, code));
    children.push([what, child]);
    return child;
  };
  const stop = async () => {
    clearInterval(timer);
    await Promise.all(children.map(([, c]) => stopChild(c)));
  };
  try {
    const scorerConfig = opts.scorerVars ? scorerDevConfig(join(persistAbs, "config"), opts.scorerVars) : configOf("scorer");
    const scorer = opts.withScorer === false ? [] : ["-c", scorerConfig];
    const apiConfig = apiDevConfig(join(persistAbs, "config"), plainVars, Object.keys(secretValues));
    // --test-scheduled: the API session's port has no scheduled handler to advertise.
    const api = spawnWrangler("api+scorer", opts.apiPort, ["-c", apiConfig, ...scorer, "--test-scheduled"]);
    const apiUrl = `http://127.0.0.1:${opts.apiPort}`;
    await waitFor(`${apiUrl}/openapi.json`, api, 120_000);
    // Sessions start one after another (each with its own inspector port, `inspectorPortFor`),
    // so their startups do not share the cores.
    let proxyUrl: string | undefined;
    if (opts.proxyPort !== undefined) {
      // At "warn", not "info": at info Miniflare wraps every response and posts its request line to
      // wrangler's Node process (2.2 ms of CPU per proxied call on the cores serving the next one,
      // bench/results/proxy.md, "Under npm run dev"); the proxy's warnings and errors still show.
      const proxy = spawnWrangler("proxy", opts.proxyPort, ["-c", configOf("proxy"), ...varArgs(opts.proxyVars)], { level: "warn" });
      proxyUrl = `http://127.0.0.1:${opts.proxyPort}`;
      await waitFor(proxyUrl, proxy, 120_000);
    }
    let sweepUrl: string | undefined;
    if (opts.sweep) {
      // Its own state and registry: its queue is its own (what it re-enqueues, it scores).
      const sweepState = join(persistAbs, "sweep");
      const sweepEnv: NodeJS.ProcessEnv = { ...env, WRANGLER_REGISTRY_PATH: join(sweepState, "registry") };
      for (const name of API_SECRETS) delete sweepEnv[name];
      const sweepConfig = scorerDevConfig(join(sweepState, "config"), { ...opts.scorerVars, BODY_UPKEEP: "false" });
      const child = spawnWrangler("sweep scorer", opts.sweep.port, ["-c", sweepConfig, "--test-scheduled"], {
        quiet: true,
        env: sweepEnv,
        persist: sweepState,
      });
      const url = `http://127.0.0.1:${opts.sweep.port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent(scorerCron())}`;
      sweepUrl = url;
      // The scorer has no fetch handler: any answer (even an error page) means it listens.
      await waitFor(`http://127.0.0.1:${opts.sweep.port}/`, child, 120_000);
      const report = opts.sweep.onResult ?? (() => {});
      timer = setInterval(() => {
        fetch(url)
          .then(async (res) => report(`sweep: ${res.status} ${(await res.text()).slice(0, 200)}`))
          .catch((err: unknown) => report(`sweep: ${err}`));
        fetch(`${apiUrl}/internal/bodies/upkeep`, { method: "POST", headers: { "X-Internal-Secret": opts.internalSecret } })
          .then(async (res) => (res.ok ? undefined : report(`body upkeep: ${res.status} ${(await res.text()).slice(0, 200)}`)))
          .catch((err: unknown) => report(`body upkeep: ${err}`));
      }, opts.sweep.everyMs ?? 60_000);
      timer.unref();
    }
    return { apiUrl, ...(proxyUrl ? { proxyUrl } : {}), ...(sweepUrl ? { sweepUrl } : {}), stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
