/** Scorer worker entry: the scoring-jobs queue consumer and the scheduled sweep. */
import { consumeBatch } from "./consume";
import type { ScorerEnv } from "./env";
import { sweep } from "./sweep";

export default {
  queue: (batch, env, ctx) => consumeBatch(batch, env, ctx),
  scheduled: async (_controller, env, ctx) => ctx.waitUntil(sweep(env).then(() => undefined)),
} satisfies ExportedHandler<ScorerEnv, unknown>;
