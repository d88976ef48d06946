/**
 * Sightline client library for Node.js: log LLM calls for safety scoring.
 *
 * - proxy mode: `withProxy(openaiClient)` (OpenAI-compatible clients; the proxy logs);
 * - direct mode: `wrapAnthropic(client)`, `wrapCohere(client)`;
 * - `trace(options, fn)` and `@traced(options)` for anything else.
 *
 * Logged calls are queued in memory and posted to `{baseUrl}/internal/log` in the
 * background (`flush`, `shutdown`, `stats`). Nothing here throws into the application's
 * call path. No runtime dependencies.
 */
export { configure, flush, shutdown, stats } from "./client.js";
export { withProxy } from "./proxy.js";
export { SESSION_HEADER } from "./session.js";
export { wrapAnthropic } from "./anthropic.js";
export { wrapCohere } from "./cohere.js";
export { trace, traced, type TraceOptions } from "./trace.js";
export { SightlineHTTPError } from "./transport.js";
export type { SightlineOptions, ErrorHandler } from "./config.js";
export type { DeliveryStats } from "./delivery-loop.js";
export type { LogPayload } from "./entry.js";
export { VERSION } from "./version.js";
