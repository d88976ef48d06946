/**
 * Configuration: the options of `configure()`, their defaults and environment variables.
 * Mirrors `sightline/config.py` (names in camelCase, durations in milliseconds).
 */
import { env as readEnv } from "./runtime.js";

/** Environment variable holding the project API key (docs/interface.md section 5.4). */
export const ENV_API_KEY = "SERVICE_API_KEY";
/** Environment variable overriding `baseUrl`. */
export const ENV_BASE_URL = "SIGHTLINE_BASE_URL";
/** Environment variable overriding `proxyUrl`. */
export const ENV_PROXY_URL = "SIGHTLINE_PROXY_URL";
/** `SIGHTLINE_ENABLED=0|false|no|off` disables the library. */
export const ENV_ENABLED = "SIGHTLINE_ENABLED";

export const DEFAULT_BASE_URL = "http://localhost:8787";
export const DEFAULT_PROXY_URL = "http://localhost:8080";

/** Largest request body the API accepts, in bytes (413 above it); larger records are shrunk. */
export const MAX_BODY_BYTES = 2 * 1024 * 1024;

/**
 * Default bound of `flush()`, `shutdown()` and the exit hook, in ms: 5 s, one request
 * timeout. OpenTelemetry bounds `forceFlush`/`shutdown` by default (`OTEL_BSP_EXPORT_TIMEOUT`
 * = 30000 ms; Python `TracerProvider.force_flush(timeout_millis=30000)`), and so does
 * PostHog's Node library (`shutdown(shutdownTimeoutMs = 30000)`). Sightline waits less:
 * logging must never hold up the application, and 5 s is what the exit hook already waited.
 */
export const DEFAULT_FLUSH_TIMEOUT_MS = 5000;

/** Receives internal errors (delivery failures, rejected records); its own throws are swallowed. */
export type ErrorHandler = (error: unknown) => void;

/** Options of `configure()`. Every field is optional. */
export interface SightlineOptions {
  /** Project API key (`slk_...`). Default: `process.env.SERVICE_API_KEY`. Missing: one warning, then no-op. */
  apiKey?: string;
  /** API address; records go to `{baseUrl}/internal/log`. Default `SIGHTLINE_BASE_URL` or http://localhost:8787. */
  baseUrl?: string;
  /** Capture proxy address used by `withProxy` (`{proxyUrl}/v1`). Default `SIGHTLINE_PROXY_URL` or http://localhost:8080. */
  proxyUrl?: string;
  /** `false` turns every entry point into a no-op. Default `true` (unless `SIGHTLINE_ENABLED=0`). */
  enabled?: boolean;
  /** Records drained per delivery cycle; reaching it starts a cycle at once. Default 50. */
  batchSize?: number;
  /** Milliseconds between delivery cycles when fewer than `batchSize` records wait. Default 1000. */
  flushIntervalMs?: number;
  /** Queue bound; when full the OLDEST record is dropped (`stats().dropped`). Default 10000. */
  maxQueueSize?: number;
  /** Milliseconds per HTTP request to the API (AbortSignal timeout). Default 5000. */
  timeoutMs?: number;
  /**
   * Retries of a record that fails on its own (408, 500 and other 5xx without `Retry-After`)
   * before it is given up (`stats().failed`). Default 3. Service-wide failures (network
   * errors, 429, 502-504, any `Retry-After`) are retried until delivered: the records wait
   * in the bounded queue.
   */
  maxRetries?: number;
  /** Receives internal errors; never called on the application's call path. */
  onError?: ErrorHandler;
  /** Records posted at the same time within a cycle. Default 4. */
  concurrency?: number;
  /** Retry `n` (0-based) waits `random(0, min(backoffMaxMs, backoffBaseMs * 2**n))` ms. Default 500. */
  backoffBaseMs?: number;
  /** Cap of one backoff wait, in ms. Default 10000. */
  backoffMaxMs?: number;
  /** Cap applied to a server `Retry-After` (seconds or HTTP-date), in ms. Default 60000. */
  retryAfterMaxMs?: number;
  /** How long the `beforeExit` hook keeps the process alive to deliver queued records, in ms. Default 5000. */
  exitTimeoutMs?: number;
  /**
   * Longest wait of `flush()` and `shutdown()` called without `timeoutMs`, in ms. Default 5000
   * (see `DEFAULT_FLUSH_TIMEOUT_MS`); `Infinity` waits until every record is handled.
   */
  flushTimeoutMs?: number;
}

/** Resolved, validated settings (immutable). */
export interface Config {
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  readonly proxyUrl: string;
  readonly enabled: boolean;
  readonly batchSize: number;
  readonly flushIntervalMs: number;
  readonly maxQueueSize: number;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly onError: ErrorHandler | undefined;
  readonly concurrency: number;
  readonly backoffBaseMs: number;
  readonly backoffMaxMs: number;
  readonly retryAfterMaxMs: number;
  readonly exitTimeoutMs: number;
  readonly flushTimeoutMs: number;
  /** `{baseUrl}/internal/log`. */
  readonly logUrl: string;
  /** Enabled and a key is present: calls are logged and sent. */
  readonly active: boolean;
}

const FALSE_WORDS = new Set(["0", "false", "no", "off"]);

function integer(name: string, value: unknown, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < minimum)
    throw new RangeError(`sightline: ${name} must be an integer >= ${minimum}, got ${String(value)}`);
  return value;
}

function duration(name: string, value: unknown, fallback: number, allowZero: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || Number.isNaN(value) || value < 0 || (!allowZero && value === 0))
    throw new RangeError(`sightline: ${name} must be a ${allowZero ? "non-negative" : "positive"} number of ms, got ${String(value)}`);
  return value;
}

const cleanUrl = (value: string) => value.trim().replace(/\/+$/, "");

/**
 * Merges explicit options with environment variables and validates them.
 * Explicit options win; `SIGHTLINE_ENABLED=0|false|no|off` disables even with `enabled: true`.
 *
 * @throws {RangeError} a numeric option is out of range (at configuration time only).
 * @throws {TypeError} `onError` is not a function.
 */
export function resolveConfig(options: SightlineOptions = {}, environment: Record<string, string | undefined> = readEnv()): Config {
  const rawKey = options.apiKey ?? environment[ENV_API_KEY];
  const apiKey = typeof rawKey === "string" && rawKey.trim() ? rawKey.trim() : undefined;
  if (options.onError !== undefined && typeof options.onError !== "function") throw new TypeError("sightline: onError must be a function");
  const envFlag = environment[ENV_ENABLED]?.trim().toLowerCase();
  const enabled = options.enabled !== false && !(envFlag && FALSE_WORDS.has(envFlag));
  const baseUrl = cleanUrl(options.baseUrl || environment[ENV_BASE_URL] || DEFAULT_BASE_URL);
  return Object.freeze({
    apiKey,
    baseUrl,
    proxyUrl: cleanUrl(options.proxyUrl || environment[ENV_PROXY_URL] || DEFAULT_PROXY_URL),
    enabled,
    batchSize: integer("batchSize", options.batchSize, 50, 1),
    flushIntervalMs: duration("flushIntervalMs", options.flushIntervalMs, 1000, false),
    maxQueueSize: integer("maxQueueSize", options.maxQueueSize, 10_000, 1),
    timeoutMs: duration("timeoutMs", options.timeoutMs, 5000, false),
    maxRetries: integer("maxRetries", options.maxRetries, 3, 0),
    onError: options.onError,
    concurrency: integer("concurrency", options.concurrency, 4, 1),
    backoffBaseMs: duration("backoffBaseMs", options.backoffBaseMs, 500, true),
    backoffMaxMs: duration("backoffMaxMs", options.backoffMaxMs, 10_000, true),
    retryAfterMaxMs: duration("retryAfterMaxMs", options.retryAfterMaxMs, 60_000, true),
    exitTimeoutMs: duration("exitTimeoutMs", options.exitTimeoutMs, DEFAULT_FLUSH_TIMEOUT_MS, true),
    flushTimeoutMs: duration("flushTimeoutMs", options.flushTimeoutMs, DEFAULT_FLUSH_TIMEOUT_MS, true),
    logUrl: baseUrl + "/internal/log",
    active: enabled && apiKey !== undefined,
  });
}
