/**
 * Proxy mode: point an OpenAI-compatible client at the Sightline capture proxy. The proxy
 * (`{proxyUrl}/v1/...`) forwards each request unchanged to the provider, streams the answer
 * back and logs the call itself; nothing is queued in this process.
 */
import { currentConfig, warnMissingKey } from "./client.js";
import { getField } from "./serialize.js";
import { cleanSessionId, SESSION_HEADER } from "./session.js";

/** Header carrying the Sightline key to the proxy. */
const SERVICE_KEY_HEADER = "X-Service-Key";

/** `{proxyUrl}/v1` without a doubled slash or a doubled `/v1`. */
export function proxyBaseUrl(proxyUrl: string): string {
  const base = proxyUrl.trim().replace(/\/+$/, "");
  return base.endsWith("/v1") ? base : base + "/v1";
}

function existingHeaders(client: unknown): Record<string, unknown> {
  const headers = getField(getField(client, "_options"), "defaultHeaders");
  if (headers === null || typeof headers !== "object" || Array.isArray(headers)) return {};
  if (typeof (headers as { forEach?: unknown }).forEach === "function" && typeof (headers as { get?: unknown }).get === "function") {
    const out: Record<string, unknown> = {};
    (headers as Headers).forEach((value, key) => (out[key] = value));
    return out;
  }
  return { ...(headers as Record<string, unknown>) };
}

/**
 * Returns a NEW client that sends its requests through the capture proxy; the original is
 * untouched. For the official `openai` client (v4+): `client.withOptions({ baseURL:
 * "{proxyUrl}/v1", defaultHeaders: { ...existing, "X-Service-Key": key } })`. Any other
 * object with a `baseURL` field gets a shallow copy with `baseURL` replaced.
 *
 * `options.apiKey` / `options.proxyUrl` override the configured values; `options.sessionId`
 * adds `X-Sightline-Session-Id` to every request (the proxy stores it as `metadata.session_id`
 * and does not forward it; per call, pass the header in the request options). When the library
 * is disabled, has no key (one warning), or the object cannot be redirected, the ORIGINAL
 * client is returned (calls go straight to the provider, unlogged). Never throws.
 */
export function withProxy<C>(openaiClient: C, options: { apiKey?: string; proxyUrl?: string; sessionId?: string } = {}): C {
  try {
    const cfg = currentConfig();
    if (!cfg.enabled) return openaiClient;
    const key = options.apiKey ?? cfg.apiKey;
    if (!key) {
      warnMissingKey();
      return openaiClient;
    }
    const baseURL = proxyBaseUrl(options.proxyUrl ?? cfg.proxyUrl);
    const sessionId = cleanSessionId(options.sessionId);
    const defaultHeaders: Record<string, unknown> = { ...existingHeaders(openaiClient), [SERVICE_KEY_HEADER]: key };
    if (sessionId !== undefined) defaultHeaders[SESSION_HEADER] = sessionId;
    const withOptions = getField(openaiClient, "withOptions");
    if (typeof withOptions === "function") return withOptions.call(openaiClient, { baseURL, defaultHeaders }) as C;
    if (openaiClient !== null && typeof openaiClient === "object" && "baseURL" in openaiClient) {
      const clone = Object.assign(Object.create(Object.getPrototypeOf(openaiClient)), openaiClient) as Record<string, unknown>;
      clone.baseURL = baseURL;
      if (getField(openaiClient, "defaultHeaders") && typeof clone.defaultHeaders === "object")
        clone.defaultHeaders = { ...(clone.defaultHeaders as object), ...defaultHeaders };
      return clone as C;
    }
  } catch {
    /* fall through: the original client */
  }
  return openaiClient;
}
