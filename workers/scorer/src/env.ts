import type { AlertJob } from "../../../src/queues/alert-deliveries";

/**
 * Bindings of the scorer worker: `ScorerBindings` is generated from workers/scorer/wrangler.jsonc
 * by `npm run types` (HYPERDRIVE; SCORING_QUEUE, the producer of scoring-jobs used by the
 * sweep); the optional ones below are not in the config and are added here. Code reads none of
 * them directly: workers/scorer/src/config.ts parses them once (`scorerConfig`).
 */
export interface ScorerEnv extends ScorerBindings {
  /** Producer of alert-deliveries (wrangler.jsonc), typed with its message. */
  ALERT_QUEUE: Queue<AlertJob>;
  /** "false": no automatic re-score after a deployment with new scorer versions (docs/rescoring.md). */
  RESCORE_ON_UPGRADE?: string;
  /** Days re-scored after such a deployment (default 7). */
  RESCORE_UPGRADE_DAYS?: string;
  /** Retention overrides per tier, JSON days (e.g. `{"free": 7}`; src/billing/tiers.ts). Unset: the tier table. */
  TIER_RETENTION_DAYS?: string;
  /** Alternative to Hyperdrive (Neon serverless driver). */
  DATABASE_URL?: string;
  NEON_WSPROXY?: string;
  /**
   * Workers AI, off by default (`"ai"` in wrangler.jsonc): a guard-model backend for projects
   * whose policy turns the judge on (judge/); scoring works the same without it.
   */
  AI?: Ai;
  /** Workers AI instruct model of the judge's policy prompts. */
  JUDGE_AI_MODEL?: string;
  /** OpenAI-compatible guard-model endpoint (instead of Workers AI), its model and key. */
  JUDGE_BASE_URL?: string;
  JUDGE_MODEL?: string;
  JUDGE_API_KEY?: string;
  /** Milliseconds one guard-model call may take. */
  JUDGE_TIMEOUT_MS?: string;
}
