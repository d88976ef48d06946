/**
 * Scorer worker entry: the consumer of scoring-jobs and of its dead-letter queue
 * scoring-jobs-dlq (same handler, longer backoff), and the scheduled sweep.
 */
import { sweep } from "../../../src/sweep";
import { consumeBatch } from "./consume";
import type { ScorerEnv } from "./env";
import { withLogContext } from "../../../src/log";

export default {
  // Every line logged for a batch names its queue and the batch (src/log.ts).
  queue: (batch, env, ctx) => withLogContext({ queue: batch.queue, batch_id: crypto.randomUUID() }, () => consumeBatch(batch, env, ctx)),
  scheduled: async (_controller, env, ctx) => ctx.waitUntil(sweep(env).then(() => undefined)),
} satisfies ExportedHandler<ScorerEnv, unknown>;
