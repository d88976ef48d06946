/**
 * Scorer worker entry: the consumer of scoring-jobs and of its dead-letter queue
 * scoring-jobs-dlq (same handler, longer backoff), and the scheduled sweep.
 */
import { sweep } from "../../../src/sweep";
import { consumeBatch } from "./consume";
import type { ScorerEnv } from "./env";

export default {
  queue: (batch, env, ctx) => consumeBatch(batch, env, ctx),
  scheduled: async (_controller, env, ctx) => ctx.waitUntil(sweep(env).then(() => undefined)),
} satisfies ExportedHandler<ScorerEnv, unknown>;
