/**
 * HTTP delivery of one encoded record to `POST {baseUrl}/internal/log` with the global
 * `fetch`, and the classification of the answer (send, retry, reject). One record per POST:
 * the API has no batch endpoint. Same policy as `sdk/python/sightline/transport.py`.
 */
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

/** Sends one encoded record; never throws. */
export type PostFn = (body: string) => Promise<Outcome>;

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
 * @param timeoutMs per request (AbortSignal timeout).
 */
export function createPost(url: string, apiKey: string, timeoutMs: number): PostFn {
  const headers = { "Content-Type": "application/json", Accept: "application/json", "X-Service-Key": apiKey, "User-Agent": SDK_NAME };
  return async function postRecord(body: string): Promise<Outcome> {
    let res: Response;
    try {
      res = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
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
  };
}
