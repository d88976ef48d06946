/**
 * HTTP delivery of one encoded record to `POST {baseUrl}/internal/log` with the global
 * `fetch`, and the classification of the answer (send, retry, reject). One record per POST:
 * the API has no batch endpoint. Same policy as `sdk/python/sightline/transport.py`.
 */
import { unrefTimer } from "./runtime.js";
import { SDK_NAME } from "./version.js";

/** The API refused a record (non-2xx answer). `status` is the HTTP status, `detail` the `{detail}` of the body. */
export class SightlineHTTPError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`sightline API answered ${status}: ${detail}`);
    this.name = "SightlineHTTPError";
  }
}

/** Result of one POST. */
export interface Outcome {
  kind: "ok" | "retry" | "rejected";
  /** HTTP status; `undefined` for a network error or timeout. */
  status?: number;
  /** Milliseconds from a `Retry-After` header (uncapped). */
  retryAfterMs?: number;
  /** What went wrong (not set on success). */
  error?: unknown;
  /**
   * The failure affects every record (network error, 429, 502-504, or a retryable status
   * with `Retry-After`): stop the round and hold the records in the buffer until delivered.
   */
  serviceWide?: boolean;
}

/**
 * Sends one encoded record; never throws. `stop` aborts the request (shutdown after its
 * bound): the outcome is then a service-wide `retry` the caller no longer counts.
 */
export type PostFn = (body: string, stop?: AbortSignal) => Promise<Outcome>;

/**
 * Statuses that mean the whole service is unavailable (rate limit, gateway, database outage:
 * the API answers 503 + `Retry-After` then). Records failing this way are never given up;
 * a retryable status with `Retry-After` counts too (the server said when to come back).
 */
const SERVICE_WIDE = new Set([429, 502, 503, 504]);

/**
 * Milliseconds to wait from a `Retry-After` value: delta-seconds or an HTTP-date.
 * `undefined` when absent or unparseable; never negative.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const when = Date.parse(text);
  return Number.isNaN(when) ? undefined : Math.max(0, when - nowMs);
}

/** Full-jitter backoff in ms: `random(0, min(capMs, baseMs * 2**retryIndex))`. */
export function backoffDelay(retryIndex: number, baseMs: number, capMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(retryIndex, 30));
  return ceiling > 0 ? random() * ceiling : 0;
}

/**
 * Milliseconds to wait before retrying records held by a service-wide failure: the server's
 * `Retry-After` capped at `retryAfterMaxMs` when it sent one, else a full-jitter backoff over
 * the consecutive failed rounds (`outageRound`, 0-based).
 */
export function outageDelay(
  retryAfterMs: number | undefined,
  outageRound: number,
  cfg: { backoffBaseMs: number; backoffMaxMs: number; retryAfterMaxMs: number },
): number {
  return retryAfterMs !== undefined ? Math.min(retryAfterMs, cfg.retryAfterMaxMs) : backoffDelay(outageRound, cfg.backoffBaseMs, cfg.backoffMaxMs);
}

/**
 * The signal of one request: aborted after `timeoutMs` or when `stop` aborts (as
 * `AbortSignal.any([AbortSignal.timeout(timeoutMs), stop])`, which Node has only from 20.3;
 * this package supports Node >= 18). `release()` drops the timer and the listener once the
 * request is over. The timer never keeps the process alive.
 */
function requestSignal(timeoutMs: number, stop: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  if (!stop) return { signal: AbortSignal.timeout(timeoutMs), release: () => {} };
  const controller = new AbortController();
  const onStop = () => controller.abort(stop.reason);
  const timer = setTimeout(() => controller.abort(new DOMException("The operation timed out.", "TimeoutError")), timeoutMs);
  unrefTimer(timer);
  if (stop.aborted) onStop();
  else stop.addEventListener("abort", onStop, { once: true });
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(timer);
      stop.removeEventListener("abort", onStop);
    },
  };
}

async function detailOf(res: Response): Promise<string> {
  try {
    const text = (await res.text()).slice(0, 1000);
    try {
      const data = JSON.parse(text) as { detail?: unknown };
      if (data && typeof data === "object" && "detail" in data) return String(data.detail);
    } catch {
      /* not JSON */
    }
    return text.trim() || "(empty body)";
  } catch {
    return "(unreadable body)";
  }
}

/**
 * Builds the POST function for one endpoint and key.
 *
 * @param url full URL of `/internal/log`.
 * @param apiKey sent as `X-Service-Key`.
 * @param timeoutMs per request, in ms (connect, answer and body).
 */
export function createPost(url: string, apiKey: string, timeoutMs: number): PostFn {
  const headers = { "Content-Type": "application/json", Accept: "application/json", "X-Service-Key": apiKey, "User-Agent": SDK_NAME };
  return async function postRecord(body: string, stop?: AbortSignal): Promise<Outcome> {
    const { signal, release } = requestSignal(timeoutMs, stop);
    try {
      return await send(body, signal);
    } finally {
      release();
    }
  };

  async function send(body: string, signal: AbortSignal): Promise<Outcome> {
    let res: Response;
    try {
      res = await fetch(url, { method: "POST", headers, body, signal });
    } catch (error) {
      return { kind: "retry", error, serviceWide: true };
    }
    const status = res.status;
    if (status >= 200 && status < 300) {
      try {
        await res.arrayBuffer(); // read to the end so the connection can be reused
      } catch {
        /* the record was accepted; a broken body read does not matter */
      }
      return { kind: "ok", status };
    }
    const error = new SightlineHTTPError(status, await detailOf(res));
    const retryAfterMs = parseRetryAfter(res.headers.get("retry-after"));
    if (status === 408 || status === 429 || status >= 500)
      return { kind: "retry", status, retryAfterMs, error, serviceWide: SERVICE_WIDE.has(status) || retryAfterMs !== undefined };
    return { kind: "rejected", status, error };
  }
}
