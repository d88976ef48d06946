/**
 * The scorer worker's configuration: its wrangler.jsonc `vars`, optional variables and
 * bindings, validated once per env object (`scorerConfig`) and typed. The queue and scheduled
 * handlers call `scorerConfig(env)` (through `configOrRetry`/`configOrLog`, src/config/parse.ts);
 * a bad value is a `ConfigError` naming it.
 */
import { z } from "zod";
import { alertVars, toAlertConfig } from "../../../src/alerts/config";
import type { AlertJob } from "../../../src/alerts/job";
import { DEFAULT_TIER_RETENTION } from "../../../src/billing/tiers";
import { databaseVars, toDbConfig } from "../../../src/config/database";
import { configParser } from "../../../src/config/parse";
import { binding, flagVar, jsonTableVar, positiveIntVar } from "../../../src/config/vars";
import { TIERS } from "../../../src/db/schema";
import { DEFAULT_UPGRADE_DAYS } from "../../../src/rescore/maintain";

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
  /** Workers AI, off by default: when bound, Llama Guard 3 refines `content_safety` (judge.ts). */
  AI: binding<Ai | undefined>(),
});

const scorerConfigSchema = scorerVars.transform((v) => ({
  alerts: toAlertConfig(v),
  rescore: { onUpgrade: v.RESCORE_ON_UPGRADE, upgradeDays: v.RESCORE_UPGRADE_DAYS },
  tierRetention: v.TIER_RETENTION_DAYS,
  db: toDbConfig(v),
  scoringQueue: v.SCORING_QUEUE,
  alertQueue: v.ALERT_QUEUE,
  ai: v.AI,
}));

/** The scorer's typed configuration. */
export type ScorerConfig = z.output<typeof scorerConfigSchema>;

/** The scorer's config from its env, parsed once per env object; throws `ConfigError`. */
export const scorerConfig = configParser(scorerConfigSchema);
