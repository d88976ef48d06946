/**
 * Sightline API worker entry: wires the Hono app to the Workers runtime, and the `log-records`
 * queue (durable capture from the proxy) to its ingest consumer.
 */
import { createApp } from "./app";
import { consumeLogRecords } from "./log-records/consume";
import type { AppEnv } from "./env";
import { withLogContext } from "../../../src/logger";

const app = createApp();

export default {
  fetch: app.fetch,
  // Every line logged for a batch names its queue and the batch (src/logger.ts).
  queue: (batch, env, ctx) => withLogContext({ queue: batch.queue, batch_id: crypto.randomUUID() }, () => consumeLogRecords(batch, env, ctx)),
} satisfies ExportedHandler<AppEnv, unknown>;
