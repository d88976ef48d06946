/**
 * Bindings of the capture proxy worker (workers/proxy/wrangler.toml). Every variable is
 * optional: with none set, the proxy forwards to OpenAI and queues records to `LOG_QUEUE`.
 */
export interface ProxyEnv {
  /** Service binding to the API worker ("sightline-api"). */
  API: Fetcher;
  /** Producer of the `log-records` queue: one message per served call (deliver.ts). */
  LOG_QUEUE: Queue;
  /** R2 bucket for records over the queue's message limit (`records/<record_id>.json`). */
  LOG_PAYLOADS: R2Bucket;
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
}
