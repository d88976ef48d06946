/**
 * Scorer worker entry: the consumer of scoring-jobs and of its dead-letter queue
 * scoring-jobs-dlq (same handler, longer backoff), the consumer of alert-deliveries (alert
 * webhooks), and the scheduled sweeps.
 */
import { sweep } from "../../../src/upkeep/sweep";
import { configOrLog } from "../../../src/config/parse";
import { scorerConfig } from "./config";
import { consumeBatch } from "./consume";
import { maintain } from "./maintenance";
import { consumeDeliveries, sweepDeliveries } from "./deliver";
import { ALERT_DELIVERIES_QUEUE } from "../../../src/queues/alert-deliveries";
import type { ScorerEnv } from "./env";
import { withLogContext } from "../../../src/logger";

export default {
  // Every line logged for a batch names its queue and the batch (src/logger.ts).
  queue: (batch, env, ctx) =>
    withLogContext({ queue: batch.queue, batch_id: crypto.randomUUID() }, () =>
      batch.queue === ALERT_DELIVERIES_QUEUE ? consumeDeliveries(batch, env, ctx) : consumeBatch(batch, env, ctx),
    ),
  scheduled: async (_controller, env, ctx) => {
    // Invalid variables are logged and the run skipped (the next cron run tries again).
    const config = configOrLog(scorerConfig, env);
    if (!config) return;
    ctx.waitUntil(Promise.all([sweep(config), sweepDeliveries(config)]).then(() => undefined));
    // Re-scoring upkeep and retention (docs/rescoring.md, docs/retention.md).
    ctx.waitUntil(maintain(config));
  },
} satisfies ExportedHandler<ScorerEnv, unknown>;
