import type { z } from "zod";
import type { proxyVars } from "./config";

/**
 * Bindings of the capture proxy worker, declared once: `ProxyBindings`, generated from
 * workers/proxy/wrangler.jsonc by `npm run types` (API, the service binding to "sightline-api"
 * that answers GET /internal/keys/check; LOG_QUEUE, the producer of the `log-records` queue;
 * LOG_PAYLOADS, the R2 bucket for records over the queue's message limit), joined with what its
 * config schema reads as it arrives (`proxyVars`, ./config.ts: the optional UPSTREAM_* and
 * KEY_CHECK_TIMEOUT_MS variables). With none set, the proxy forwards to OpenAI and queues records.
 */
export type ProxyEnv = ProxyBindings & z.input<typeof proxyVars>;
