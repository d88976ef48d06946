/**
 * Bindings of the capture proxy worker: `ProxyBindings` is generated from
 * workers/proxy/wrangler.jsonc by `npm run types` (API, the service binding to "sightline-api" that
 * answers GET /internal/keys/check;
 * LOG_QUEUE, the producer of the `log-records` queue that receives one record per served call;
 * LOG_PAYLOADS, the R2 bucket for records over the queue's message limit). Every variable is
 * optional and declared here: with none set, the proxy forwards to OpenAI and queues records.
 */
export interface ProxyEnv extends ProxyBindings {
  /**
   * Default upstream base URL, e.g. `https://api.openai.com` (the default) or a self-hosted
   * OpenAI-compatible server. A path is kept: `https://gw.example/openai` + `/v1/...`.
   */
  UPSTREAM_BASE_URL?: string;
  /**
   * Comma-separated origins (`https://host[:port]`) that a request may pick with the
   * `X-Upstream-Base-URL` header. Empty or unset: the header is refused with 403.
   */
  UPSTREAM_ALLOWLIST?: string;
  /** Provider name logged for the default upstream; inferred from its host when unset. */
  UPSTREAM_PROVIDER?: string;
  /** Milliseconds to wait for the upstream's response headers before answering 502 (default 600000). */
  UPSTREAM_TIMEOUT_MS?: string;
  /**
   * Milliseconds to wait for the Sightline key check from the start of a call (default 1000);
   * past it the call is forwarded unchecked (fail open, see key-check.ts).
   */
  KEY_CHECK_TIMEOUT_MS?: string;
}
