/**
 * The scorer worker's configuration: its wrangler.jsonc `vars`, optional variables and
 * bindings, validated once per env object (`scorerConfig`) and typed. The queue and scheduled
 * handlers call `scorerConfig(env)` (through `configOrRetry`/`configOrLog`, src/config/parse.ts);
 * a bad value is a `ConfigError` naming it.
 */
import { z } from "zod";
import { alertVars, toAlertConfig } from "../../../src/alerts/config";
import type { AlertJob } from "../../../src/queues/alert-deliveries";
import { DEFAULT_TIER_RETENTION } from "../../../src/billing/tiers";
import { databaseVars, toDbConfig } from "../../../src/config/database";
import { configParser } from "../../../src/config/parse";
import { binding, flagVar, httpUrlVar, jsonTableVar, positiveIntVar, secretVar, textVar } from "../../../src/config/vars";
import { TIERS } from "../../../src/enums";
import { DEFAULT_UPGRADE_DAYS } from "../../../src/rescore/maintain";
import { type AiRunner, openAiBackend, workersAiBackend } from "./judge/backends";
import { JUDGE_CONCURRENCY, JUDGE_TIMEOUT_MS, type JudgeTier } from "./judge/tier";

/** The scorer's variables and bindings as they arrive (strings; see docs/configuration.md). */
export const scorerVars = z.object({
  ...alertVars,
  /** "false": no automatic re-score after a deployment with new scorer versions (docs/rescoring.md). */
  RESCORE_ON_UPGRADE: flagVar(true),
  /** Days re-scored after such a deployment (default 7). */
  RESCORE_UPGRADE_DAYS: positiveIntVar(DEFAULT_UPGRADE_DAYS),
  /** Retention days per tier, JSON overrides of the tier table (e.g. `{"free": 7}`). */
  TIER_RETENTION_DAYS: jsonTableVar(TIERS, DEFAULT_TIER_RETENTION),
  ...databaseVars,
  /** Producer of scoring-jobs (the sweep, re-scoring). */
  SCORING_QUEUE: binding<Queue<unknown>>(),
  /** Producer of alert-deliveries. */
  ALERT_QUEUE: binding<Queue<AlertJob>>(),
  /**
   * "false": this worker's cron leaves the body objects alone (no deletion, no move to R2). Set
   * by `npm run dev` for its second scorer session, whose R2 is not the API's; there the API's
   * POST /internal/bodies/upkeep does it (scripts/lib/workers.ts).
   */
  BODY_UPKEEP: flagVar(true),
  /** Request and response bodies over the inline size (bucket `sightline-bodies`, src/bodies/): read to score, deleted by retention. */
  BODIES: binding<R2Bucket>(),
  /** Workers AI, off by default: when bound (and no `JUDGE_BASE_URL`), the guard-model tier's backend (judge/backends.ts). */
  AI: binding<Ai | undefined>(),
  /** Workers AI instruct model of the policy prompts (default `@cf/meta/llama-3.1-8b-instruct-fast`). */
  JUDGE_AI_MODEL: textVar,
  /** An OpenAI-compatible endpoint as the guard-model backend instead of Workers AI, e.g. `http://127.0.0.1:8000/v1`. */
  JUDGE_BASE_URL: httpUrlVar,
  /** The model that endpoint serves (required with `JUDGE_BASE_URL`). */
  JUDGE_MODEL: textVar,
  /** Bearer token of that endpoint (a secret), when it wants one. */
  JUDGE_API_KEY: secretVar,
  /** Milliseconds one guard-model call may take (default 5000). */
  JUDGE_TIMEOUT_MS: positiveIntVar(JUDGE_TIMEOUT_MS),
});

/**
 * The guard-model tier of the parsed variables: an OpenAI-compatible endpoint when
 * `JUDGE_BASE_URL` is set (then `JUDGE_MODEL` is required), else Workers AI when `AI` is bound,
 * else none (policies asking for a judge then keep their local scores).
 */
function toJudgeTier(v: z.output<typeof scorerVars>, ctx: z.RefinementCtx): JudgeTier | undefined {
  const limits = { timeoutMs: v.JUDGE_TIMEOUT_MS, concurrency: JUDGE_CONCURRENCY };
  if (v.JUDGE_BASE_URL) {
    if (!v.JUDGE_MODEL) {
      ctx.addIssue({ code: "custom", path: ["JUDGE_MODEL"], message: "expected the model name the JUDGE_BASE_URL endpoint serves, got nothing" });
      return undefined;
    }
    return { backend: openAiBackend({ baseUrl: v.JUDGE_BASE_URL, model: v.JUDGE_MODEL, apiKey: v.JUDGE_API_KEY }), ...limits };
  }
  return v.AI ? { backend: workersAiBackend(v.AI as unknown as AiRunner, v.JUDGE_AI_MODEL), ...limits } : undefined;
}

const scorerConfigSchema = scorerVars.transform((v, ctx) => ({
  alerts: toAlertConfig(v),
  rescore: { onUpgrade: v.RESCORE_ON_UPGRADE, upgradeDays: v.RESCORE_UPGRADE_DAYS },
  tierRetention: v.TIER_RETENTION_DAYS,
  db: toDbConfig(v),
  scoringQueue: v.SCORING_QUEUE,
  alertQueue: v.ALERT_QUEUE,
  bodies: v.BODIES,
  bodyUpkeep: v.BODY_UPKEEP,
  judge: toJudgeTier(v, ctx),
}));

/** The scorer's typed configuration. */
export type ScorerConfig = z.output<typeof scorerConfigSchema>;

/** The scorer's config from its env, parsed once per env object; throws `ConfigError`. */
export const scorerConfig = configParser(scorerConfigSchema);
