/**
 * Runs the stack the way a user does: `npm run dev` as a child process from the repository
 * root, in its own process group (like a terminal), with ports, data directory, wrangler state
 * and dev registry of its own so it never meets a developer's stack or another test run.
 * A fresh data directory makes `npm run dev` seed the demo project and print its key, which is
 * read from stdout; Ctrl-C is SIGINT to the whole group. `restartOf` starts `npm run dev` again
 * on a stopped stack's data (kept by `stop(ms, true)`), as a developer restarting it does.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BILLING_VARS } from "../../../scripts/lib/dev-vars";
import { ROOT } from "../../../scripts/lib/postgres";
import { livePids, portsInUse, startGroup } from "./processes";

/** Ports of one stack. */
export interface StackPorts {
  api: number;
  proxy: number;
  pg: number;
}

/** Options of `startDevStack`. */
export interface DevStackOptions {
  ports: StackPorts;
  /** Passed to the proxy as UPSTREAM_BASE_URL (the provider stand-in). */
  upstreamBaseUrl?: string;
  /** Port `npm run dev` gives its Stripe stand-in (SIGHTLINE_STRIPE_PORT). */
  stripePort: number;
  /** Port of the scorer session whose scheduled handler the sweep calls (SIGHTLINE_SWEEP_PORT). */
  sweepPort: number;
  /** More environment for `npm run dev`. */
  env?: Record<string, string>;
  /** How long `npm run dev` may take to print that it is up (ms). */
  startTimeoutMs?: number;
  /** Mirror the stack's output to this process's stderr. */
  echo?: boolean;
  /**
   * A PostgreSQL the caller runs (and may stop and restart), given to `npm run dev` as
   * DATABASE_URL; unset: the stack's own embedded database, as on a fresh clone.
   */
  databaseUrl?: string;
  /** Port of the stack's dashboard (SIGHTLINE_DASHBOARD_PORT; default the API's + 5). */
  dashboardPort?: number;
  /** A stack stopped with its data kept: start again on its data directory (no new demo key is printed). */
  restartOf?: DevStack;
}

/** How the stack ended after Ctrl-C. */
export interface StopReport {
  /** Exit code of `npm run dev` (null when ended by a signal). */
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Milliseconds from SIGINT until every process of the group was gone. */
  ms: number;
  /** Processes of the group still alive at the deadline (then killed). */
  leftovers: number[];
  /** Stack ports still accepting connections after the stop. */
  busyPorts: number[];
}

/** A running `npm run dev`. */
export interface DevStack {
  apiUrl: string;
  proxyUrl: string;
  /** The dashboard (SIGHTLINE_DASHBOARD_PORT). */
  dashboardUrl: string;
  /** The demo project's key, as printed. */
  key: string;
  projectId: string;
  /** INTERNAL_API_SECRET given to the stack (opens /internal/*). */
  secret: string;
  /** The Stripe stand-in `npm run dev` started, as its summary block lists it. */
  stripeUrl: string;
  /** Everything the stack wrote so far (stdout and stderr interleaved). */
  output(): string;
  /** The stack's own directory (database, wrangler state, Stripe stand-in state). */
  workDir: string;
  /**
   * Ctrl-C: SIGINT to the group, then waits (up to `timeoutMs`) for every process to end; the
   * data directory is removed unless `keepData` (for `restartOf`).
   */
  stop(timeoutMs?: number, keepData?: boolean): Promise<StopReport>;
}

/** The key line `npm run dev` prints once for a new demo project. */
const KEY_LINE = /^\s*SERVICE_API_KEY=(slk_[0-9a-f]{48})\s*$/m;
const PROJECT_LINE = /project id ([0-9a-f-]{36});/;
/** The summary row of the Stripe stand-in. */
const STRIPE_LINE = /^\s*Stripe\s+stand-in (http:\/\/\S+)/m;
/** Last line `npm run dev` prints once everything is up. */
const READY_LINE = "Ctrl-C stops everything.";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `npm run dev` and resolves once it printed that it is up, with the key it printed. */
export async function startDevStack(opts: DevStackOptions): Promise<DevStack> {
  const { ports } = opts;
  const dashboardPort = opts.dashboardPort ?? ports.api + 5;
  const busy = await portsInUse([ports.api, ports.proxy, ports.pg, opts.stripePort, opts.sweepPort, dashboardPort]);
  if (busy.length > 0) throw new Error(`ports in use, cannot start the e2e stack: ${busy.join(", ")}`);

  mkdirSync(join(ROOT, ".data"), { recursive: true });
  // Under .data (not /tmp): when run as root, PostgreSQL runs as a `postgres` user that must reach it.
  const work = opts.restartOf?.workDir ?? mkdtempSync(join(ROOT, ".data", `e2e-${ports.api}-`));
  chmodSync(work, 0o755);
  const secret = randomBytes(32).toString("hex");
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...opts.env,
    SIGHTLINE_API_PORT: String(ports.api),
    SIGHTLINE_PROXY_PORT: String(ports.proxy),
    SIGHTLINE_PG_PORT: String(ports.pg),
    SIGHTLINE_STRIPE_PORT: String(opts.stripePort),
    SIGHTLINE_SWEEP_PORT: String(opts.sweepPort),
    SIGHTLINE_DASHBOARD_PORT: String(dashboardPort),
    SIGHTLINE_DATA_DIR: join(work, "pg"),
    SIGHTLINE_PERSIST_DIR: join(work, "wrangler"),
    WRANGLER_REGISTRY_PATH: join(work, "registry"),
    // Given here so `npm run dev` neither reads nor creates the developer's .dev.vars secret.
    INTERNAL_API_SECRET: secret,
    UPSTREAM_BASE_URL: opts.upstreamBaseUrl ?? "",
    FORCE_COLOR: "0",
  };
  if (opts.databaseUrl) env.DATABASE_URL = opts.databaseUrl;
  else delete env.DATABASE_URL; // the embedded database, as on a fresh clone
  for (const name of BILLING_VARS) delete env[name]; // billing variables a developer may have exported: a fresh clone has none

  const group = startGroup("npm", ["run", "dev"], { cwd: ROOT, env, echo: opts.echo });
  const { child, pgid } = group;

  const stop = async (timeoutMs = 30_000, keepData = false): Promise<StopReport> => {
    const t0 = Date.now();
    group.signal("SIGINT");
    const deadline = t0 + timeoutMs;
    let alive = livePids(pgid);
    const running = () => child.exitCode === null && child.signalCode === null;
    while ((alive.length > 0 || running()) && Date.now() < deadline) {
      await sleep(100);
      alive = livePids(pgid);
    }
    const ms = Date.now() - t0;
    if (alive.length > 0) group.signal("SIGKILL");
    const [code, signal] = await Promise.race([group.closed, sleep(5_000).then(() => [null, null] as [null, null])]);
    group.release();
    const busyPorts = await portsInUse([ports.api, ports.proxy, ports.pg, opts.stripePort, opts.sweepPort, dashboardPort]);
    if (!keepData) rmSync(work, { recursive: true, force: true });
    return { code, signal, ms, leftovers: alive, busyPorts };
  };

  const notUp = await group.printed(READY_LINE, opts.startTimeoutMs ?? 240_000);
  if (notUp) {
    await stop(10_000);
    throw new Error(`npm run dev ${notUp}; its output:\n${group.output().slice(-4000)}`);
  }
  const key = opts.restartOf?.key ?? KEY_LINE.exec(group.output())?.[1];
  const projectId = opts.restartOf?.projectId ?? PROJECT_LINE.exec(group.output())?.[1];
  const stripeUrl = STRIPE_LINE.exec(group.output())?.[1];
  if (!key || !projectId || !stripeUrl) {
    await stop(10_000);
    throw new Error(`npm run dev did not print a demo key, project and Stripe stand-in; its output:\n${group.output().slice(-4000)}`);
  }
  return {
    apiUrl: `http://127.0.0.1:${ports.api}`,
    proxyUrl: `http://127.0.0.1:${ports.proxy}`,
    dashboardUrl: `http://localhost:${dashboardPort}`,
    key,
    projectId,
    secret,
    stripeUrl,
    workDir: work,
    output: group.output,
    stop,
  };
}
