/**
 * Delivers a log record to the API through the `API` service binding. Delivery is best
 * effort: the application already has its response, so a refusal (413, 429 over quota, 401
 * revoked key), an API outage, a timeout or an exception is reported in the proxy's own logs
 * as one JSON line on stderr and otherwise ignored. Never throws.
 */

/** Default time allowed for one log post: 10 s. */
export const DEFAULT_LOG_TIMEOUT_MS = 10_000;

/** Internal URL of the log route on the API binding (the host is not used by service bindings). */
const LOG_URL = "https://sightline-api/internal/log";

/** Context printed with a failure (never a key or a body). */
export interface ReportContext {
  model: string;
  endpoint: string;
}

/** Reads `{detail}` from an API error body, bounded. */
async function detailOf(res: Response): Promise<string> {
  const text = (await res.text().catch(() => "")).slice(0, 500);
  try {
    const parsed = JSON.parse(text) as { detail?: unknown };
    if (typeof parsed.detail === "string") return parsed.detail;
  } catch {
    // not JSON; the text itself is the detail
  }
  return text;
}

/** Posts one serialised record with the application's key; failures are logged, not thrown. */
export async function sendLog(api: Fetcher | undefined, key: string, json: string, timeoutMs: number, context: ReportContext): Promise<boolean> {
  try {
    if (!api) throw new Error("the API service binding is not configured");
    const res = await api.fetch(LOG_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Service-Key": key },
      body: json,
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (res.ok) {
      await res.body?.cancel();
      return true;
    }
    console.error(JSON.stringify({ msg: "log post refused by the API", status: res.status, detail: await detailOf(res), ...context }));
  } catch (err) {
    console.error(JSON.stringify({ msg: "log post failed", error: String(err), ...context }));
  }
  return false;
}
