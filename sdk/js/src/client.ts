/**
 * Process-wide state: the active configuration and its delivery loop, plus the public
 * `configure`, `flush`, `shutdown` and `stats`, and the flush at process exit.
 */
import { resolveConfig, type Config, type SightlineOptions, ENV_API_KEY } from "./config.js";
import type { LogEntry } from "./entry.js";
import { nodeProcess } from "./runtime.js";
import type { PostFn } from "./transport.js";
import { DeliveryLoop, type DeliveryStats } from "./delivery-loop.js";

let config: Config | undefined;
let loop: DeliveryLoop | undefined;
let warned = false;
let exitHookInstalled = false;
/** `Date.now()` by which the exit hook stops waiting (set by the first `beforeExit`). */
let exitDeadline: number | undefined;

const EMPTY_STATS: DeliveryStats = { queued: 0, inFlight: 0, enqueued: 0, sent: 0, dropped: 0, rejected: 0, failed: 0, retries: 0, unsent: 0, invalid: 0 };

/** Warns once per process that no API key is set (the library then does nothing). */
export function warnMissingKey(): void {
  if (warned) return;
  warned = true;
  try {
    console.warn(
      `sightline: no API key (pass configure({ apiKey }) or set ${ENV_API_KEY}); LLM calls will NOT be logged. ` + "Your application is not affected.",
    );
  } catch {
    /* console may be unavailable */
  }
}

/**
 * Configures the library (call once at start-up; calling again replaces the settings and
 * moves records still queued to the new configuration).
 *
 * Options (all optional; see the README for defaults): `apiKey` (falls back to
 * `process.env.SERVICE_API_KEY`), `baseUrl`, `proxyUrl`, `enabled`, `batchSize`,
 * `flushIntervalMs`, `maxQueueSize`, `timeoutMs`, `maxRetries`, `onError`, `concurrency`,
 * `backoffBaseMs`, `backoffMaxMs`, `retryAfterMaxMs`, `exitTimeoutMs`, `flushTimeoutMs`.
 * Without a key: one `console.warn`, then every entry point is a no-op.
 *
 * @throws {RangeError | TypeError} an option has an invalid value (never thrown from a logged call).
 */
export function configure(options: SightlineOptions = {}): void {
  applyConfig(resolveConfig(options));
}

/** Installs `cfg` with an optional custom POST (tests and benchmarks). @internal */
export function applyConfig(cfg: Config, post?: PostFn): void {
  const previous = loop;
  config = cfg;
  loop = undefined;
  if (cfg.enabled && !cfg.apiKey) warnMissingKey();
  if (cfg.active) {
    loop = new DeliveryLoop(cfg, post);
    installExitHook();
  }
  if (previous) {
    const left = previous.takeQueued();
    if (loop) loop.adopt(left);
  }
}

/** The active configuration; configures from the environment on first use. @internal */
export function currentConfig(): Config {
  if (config === undefined) {
    try {
      applyConfig(resolveConfig());
    } catch {
      applyConfig(resolveConfig({ enabled: false }));
    }
  }
  return config as Config;
}

/** The delivery loop, or `undefined` when disabled or without a key (then nothing is logged). @internal */
export function currentDeliveryLoop(): DeliveryLoop | undefined {
  if (config === undefined) currentConfig();
  return loop;
}

/** Queues one record; never throws. @internal */
export function record(entry: LogEntry): void {
  try {
    loop?.submit(entry);
  } catch (error) {
    loop?.report(error);
  }
}

/**
 * Sends everything queued now. Resolves `true` once every record is handled (sent,
 * rejected or given up after retries), `false` when `timeoutMs` passed first; the records
 * not delivered stay queued (`stats().queued + stats().inFlight`) and delivery continues
 * in the background. Never rejects, never waits forever.
 *
 * @param options.timeoutMs longest wait in ms. Default: `flushTimeoutMs` of `configure()`,
 *   5000 (OpenTelemetry and PostHog bound theirs by default too, at 30 s; see
 *   `DEFAULT_FLUSH_TIMEOUT_MS`). `Infinity` waits until everything is handled.
 *
 * Serverless: return it to the platform so the runtime waits for it, e.g. on Cloudflare
 * Workers `ctx.waitUntil(flush())`, on Vercel `waitUntil(flush())` from `@vercel/functions`.
 */
export async function flush(options: { timeoutMs?: number } = {}): Promise<boolean> {
  try {
    return loop ? await loop.flush(options.timeoutMs) : true;
  } catch {
    return false;
  }
}

/**
 * Flushes (up to `timeoutMs`), then stops delivery: later calls are not logged until
 * `configure()` is called again. Resolves `true` when everything was handled in time;
 * otherwise `false`, requests still in flight are aborted and every record not delivered
 * is counted once in `stats().unsent`. Never rejects, never waits forever: a script ending
 * with `await shutdown()` exits within the bound even when the API is unreachable.
 *
 * @param options.timeoutMs longest wait in ms. Default: `flushTimeoutMs` of `configure()`,
 *   5000, the same bound as the exit hook (`exitTimeoutMs`); see `DEFAULT_FLUSH_TIMEOUT_MS`
 *   for the defaults of OpenTelemetry and PostHog. `Infinity` waits until everything is handled.
 */
export async function shutdown(options: { timeoutMs?: number } = {}): Promise<boolean> {
  const current = loop;
  loop = undefined;
  try {
    return current ? await current.shutdown(options.timeoutMs) : true;
  } catch {
    return false;
  } finally {
    if (current) lastStats = current.stats();
  }
}

let lastStats: DeliveryStats | undefined;

/**
 * Delivery counters of the current (or last) configuration: `queued`, `inFlight`, `enqueued`,
 * `sent`, `dropped` (queue full, oldest evicted), `rejected` (4xx other than 408/429, not
 * retried), `failed` (failing on its own, gave up after `maxRetries`), `retries` (backoff and
 * `Retry-After` waits), `unsent` (not delivered when `shutdown()` returned: queued or in
 * flight at its bound), `invalid` (not serialisable). `enqueued` = `sent + dropped + rejected +
 * failed + unsent + invalid + queued + inFlight`: every record is accounted for once.
 */
export function stats(): DeliveryStats {
  return loop ? loop.stats() : { ...(lastStats ?? EMPTY_STATS) };
}

/** Flushes at process exit (Node's `beforeExit`), for up to `exitTimeoutMs`. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  const proc = nodeProcess();
  if (!proc || typeof proc.on !== "function") return;
  exitHookInstalled = true;
  try {
    proc.on("beforeExit", onBeforeExit);
  } catch {
    /* not a Node-compatible runtime */
  }
}

function onBeforeExit(): void {
  // `beforeExit` fires again each time the event loop empties (after each flush that timed out,
  // e.g. while the API is down): all of them together wait at most `exitTimeoutMs`.
  const current = loop;
  if (!current || current.queue.pending() === 0) return;
  exitDeadline ??= Date.now() + current.config.exitTimeoutMs;
  const left = exitDeadline - Date.now();
  // A flush that drained everything ends this exit attempt: a later one gets its own budget.
  if (left > 0) void current.flush(left).then((drained) => drained && (exitDeadline = undefined));
}
