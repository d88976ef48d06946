/**
 * Runs the dashboard locally: builds the SPA with Vite, then `wrangler pages dev` serves it
 * with its Functions (dashboard/functions -> dashboard/server), the `API` service binding
 * reaching the `wrangler dev` session of sightline-api through the dev registry, and
 * Hyperdrive pointed at the stack's PostgreSQL. Used by `npm run dev` and the browser tests.
 */
import { spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { isAbsolute, join } from "node:path";
import { ROOT } from "./postgres";
import { inspectorPortFor, stopChild, waitFor } from "./workers";

/** Default port of the dashboard (Pages' own default for `wrangler pages dev`). */
export const DASHBOARD_PORT = Number(process.env.SIGHTLINE_DASHBOARD_PORT ?? 8788);

/** Options of `startDashboard`. */
export interface DashboardOptions {
  /** Listening port (default DASHBOARD_PORT: SIGHTLINE_DASHBOARD_PORT or 8788). */
  port?: number;
  databaseUrl: string;
  /** The API's internal secret (the dashboard calls the API with it). */
  internalSecret: string;
  /** Public URLs shown in the onboarding snippets. */
  apiUrl: string;
  proxyUrl?: string;
  /** Local state directory, relative to the repository root or absolute (default .wrangler/state); its registry/ is shared with startWorkers. */
  persistTo?: string;
  /** Keep wrangler's output quiet (tests). */
  quiet?: boolean;
  /** Skip the Vite build (the SPA in dashboard/dist is current). */
  skipBuild?: boolean;
  /** Called when the server exits on its own. */
  onExit?: (code: number | null) => void;
}

/** A running dashboard. */
export interface RunningDashboard {
  url: string;
  stop(): Promise<void>;
}

const DASHBOARD_DIR = join(ROOT, "dashboard");
const bin = (name: string) => join(ROOT, "node_modules", ".bin", name);

function run(cmd: string, args: string[], cwd: string, quiet: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: quiet ? ["ignore", "ignore", "inherit"] : "inherit" });
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited with ${code}`))));
  });
}

/**
 * Builds and serves the dashboard; resolves once it answers HTTP. The session-signing secret
 * is derived from the internal secret (HMAC-SHA-256), so sessions survive restarts of a dev
 * stack without another secret to manage.
 */
export async function startDashboard(opts: DashboardOptions): Promise<RunningDashboard> {
  const port = opts.port ?? DASHBOARD_PORT;
  const url = `http://localhost:${port}`;
  if (!opts.skipBuild) await run(bin("vite"), ["build", "--logLevel", opts.quiet ? "error" : "warn"], DASHBOARD_DIR, opts.quiet ?? false);
  // Secrets reach `wrangler pages dev` through its environment, never argv (`ps` shows argv):
  // with CLOUDFLARE_INCLUDE_PROCESS_ENV wrangler binds the variables of its environment, which
  // is therefore kept to what it needs.
  const secrets = {
    INTERNAL_API_SECRET: opts.internalSecret,
    BETTER_AUTH_SECRET: createHmac("sha256", opts.internalSecret).update("sightline-dashboard-sessions").digest("hex"),
  };
  const bindings = {
    DASHBOARD_URL: url,
    PUBLIC_API_URL: opts.apiUrl,
    PUBLIC_PROXY_URL: opts.proxyUrl ?? "http://localhost:8080",
  };
  // The same dev registry as startWorkers (scripts/lib/workers.ts), so API means this stack's API.
  const persist = isAbsolute(opts.persistTo ?? "") ? opts.persistTo! : join(ROOT, opts.persistTo || ".wrangler/state");
  const registry = process.env.WRANGLER_REGISTRY_PATH || join(persist, "registry");
  const inherited = Object.fromEntries(
    ["PATH", "HOME", "TMPDIR", "LANG", "XDG_CONFIG_HOME"].filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]),
  );
  const env: Record<string, string> = {
    ...inherited,
    ...secrets,
    CLOUDFLARE_INCLUDE_PROCESS_ENV: "true",
    CLOUDFLARE_HYPERDRIVE_LOCAL_CONNECTION_STRING_HYPERDRIVE: opts.databaseUrl,
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_REGISTRY_PATH: registry,
  };
  const args = [
    "pages",
    "dev",
    "dist",
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspectorPortFor(port)),
    "--persist-to",
    persist,
    "--log-level",
    opts.quiet ? "error" : "info",
    "--show-interactive-dev-session=false",
  ];
  for (const [k, v] of Object.entries(bindings)) args.push("--binding", `${k}=${v}`);
  const child = spawn(bin("wrangler"), args, {
    cwd: DASHBOARD_DIR,
    env: env as NodeJS.ProcessEnv,
    stdio: opts.quiet ? ["ignore", "ignore", "pipe"] : ["ignore", "inherit", "inherit"],
  });
  if (opts.quiet) child.stderr?.on("data", (d: Buffer) => process.stderr.write(d));
  child.on("exit", (code) => opts.onExit?.(code));
  const stop = () => stopChild(child);
  try {
    await waitFor(url, child, 120_000);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, stop };
}
