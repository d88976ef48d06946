/**
 * Sightline API worker entry: wires the Hono app to the Workers runtime, and the `log-records`
 * queue (durable capture from the proxy) to its ingest consumer.
 */
import { createApp } from "./app";
import { consumeLogRecords } from "./capture/consume";
import type { AppEnv } from "./env";

const app = createApp();

export default {
  fetch: app.fetch,
  queue: (batch, env, ctx) => consumeLogRecords(batch, env, ctx),
} satisfies ExportedHandler<AppEnv, unknown>;
