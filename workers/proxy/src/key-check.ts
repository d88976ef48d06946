/**
 * The Sightline key check of the capture proxy (issue 12, point 2). The proxy asks the API
 * (`GET /internal/keys/check` over the `API` service binding, workers/api/src/routes/key-check.ts) whether
 * the presented key is accepted, in parallel with the upstream call, and holds the response
 * until the answer is in: unknown, revoked and expired keys get 401 before any response byte,
 * and a key without the `ingest` scope (issue 32: a read-only or admin-only key) 403.
 *
 * - Cache: a verdict (accepted or refused) is reused for `KEY_CACHE_MS` (1 s) from the moment
 *   its check was sent, per isolate. So a revocation takes effect within 1 s plus one check's
 *   round trip. Calls that arrive while a key's first check is still out each ask themselves.
 * - Refresh ahead: a call that finds an accepted verdict older than `KEY_REFRESH_MS` (0.5 s)
 *   uses it and sends a new check in the background (one at a time per key), so under steady
 *   traffic no call waits for a check once the key is known, and a revocation takes effect
 *   within 0.5 s plus one round trip.
 * - Failure: when the check cannot answer (API down, database down, timeout, anything but 200,
 *   401 or 403), the call is let through (fail open): the application must never fail because
 *   Sightline did. The queued log record still carries the key's hash, and the ingest consumer
 *   drops it there if the key was not valid after all (workers/api/src/log-records/consume.ts). Failed checks are not cached, so the next call asks again.
 */

/** How long a verdict is reused: 1 s (issue 12: "revocation takes effect within one second"). */
export const KEY_CACHE_MS = 1_000;

/** Age at which an accepted verdict is re-checked in the background while still used: 0.5 s. */
export const KEY_REFRESH_MS = 500;

/** Default wait for a key check, from the start of the call: 1 s. Past it the call fails open. */
export const DEFAULT_KEY_CHECK_TIMEOUT_MS = 1_000;

/** Most keys remembered per isolate; the oldest entry is dropped beyond it (bounds memory). */
const CACHE_ENTRIES = 10_000;

/** Internal URL of the check on the API binding (service bindings ignore the host). */
const CHECK_URL = "https://sightline-api/internal/keys/check";

/**
 * What the check said: accepted, refused with the API's status (401: unknown, revoked or
 * expired; 403: no `ingest` scope) and reason, or no answer (fail open).
 */
export type KeyVerdict = { status: "accepted" } | { status: "refused"; httpStatus: 401 | 403; detail: string } | { status: "unchecked"; reason: string };

interface Entry {
  sentAt: number;
  verdict: KeyVerdict;
}

/**
 * Settled verdicts by key. Only settled values are shared between requests, never a pending
 * promise: workerd runs the continuation of a promise from another request's context late
 * (measured: a cache of promises made cached calls ~10 ms slower than uncached ones).
 */
const cache = new Map<string, Entry>();

/** Asks the API once; never throws. */
async function ask(api: Fetcher | undefined, key: string, timeoutMs: number): Promise<KeyVerdict> {
  try {
    if (!api) return { status: "unchecked", reason: "the API service binding is not configured" };
    const res = await api.fetch(CHECK_URL, { headers: { "X-Service-Key": key }, signal: AbortSignal.timeout(timeoutMs) });
    if (res.status === 200) {
      await res.body?.cancel();
      return { status: "accepted" };
    }
    const text = (await res.text().catch(() => "")).slice(0, 500);
    if (res.status === 401 || res.status === 403) {
      let detail = res.status === 401 ? "invalid API key" : "this API key lacks the ingest scope";
      try {
        const parsed = JSON.parse(text) as { detail?: unknown };
        if (typeof parsed.detail === "string") detail = parsed.detail;
      } catch {
        // a refusal without our JSON: keep the generic reason
      }
      return { status: "refused", httpStatus: res.status, detail };
    }
    return { status: "unchecked", reason: `the key check answered HTTP ${res.status}` };
  } catch (err) {
    return { status: "unchecked", reason: `the key check failed: ${String(err)}` };
  }
}

/** Keys whose background re-check (refresh ahead) is out. */
const refreshing = new Set<string>();

/** Stores a settled verdict sent at `sentAt`, unless a later one is already stored. */
function remember(key: string, sentAt: number, verdict: KeyVerdict): void {
  // An unanswered check is not reused: the next call asks again.
  if (verdict.status === "unchecked") return;
  const current = cache.get(key);
  if (!current || current.sentAt <= sentAt) {
    cache.delete(key); // re-insert: Map order is insertion order, oldest first
    cache.set(key, { sentAt, verdict });
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  }
}

/**
 * The verdict on `key`, from the cache when a check of it was sent less than KEY_CACHE_MS ago
 * (an accepted one older than KEY_REFRESH_MS is re-checked in the background, kept alive by
 * `waitUntil`, the request's `ctx.waitUntil`). `timeoutMs` bounds the wait for a fresh check.
 * Never rejects.
 */
export async function checkKey(
  api: Fetcher | undefined,
  key: string,
  timeoutMs = DEFAULT_KEY_CHECK_TIMEOUT_MS,
  waitUntil?: (promise: Promise<unknown>) => void,
): Promise<KeyVerdict> {
  const sentAt = Date.now();
  const cached = cache.get(key);
  const age = cached ? sentAt - cached.sentAt : Number.POSITIVE_INFINITY;
  if (cached && age < KEY_CACHE_MS) {
    if (waitUntil && age >= KEY_REFRESH_MS && cached.verdict.status === "accepted" && !refreshing.has(key)) {
      refreshing.add(key);
      waitUntil(
        ask(api, key, timeoutMs).then((verdict) => {
          remember(key, sentAt, verdict);
          refreshing.delete(key);
        }),
      );
    }
    return cached.verdict;
  }
  const verdict = await ask(api, key, timeoutMs);
  remember(key, sentAt, verdict);
  return verdict;
}
