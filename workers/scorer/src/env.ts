/**
 * Bindings of the scorer worker: `ScorerBindings` is generated from workers/scorer/wrangler.jsonc
 * by `npm run types` (HYPERDRIVE; SCORING_QUEUE, the producer of scoring-jobs used by the
 * sweep); the optional ones below are not in the config and are added here.
 */
export interface ScorerEnv extends ScorerBindings {
  /** Alternative to Hyperdrive (Neon serverless driver). */
  DATABASE_URL?: string;
  NEON_WSPROXY?: string;
  /**
   * Workers AI, off by default (`"ai"` in wrangler.jsonc). When bound, Llama Guard 3 refines
   * `content_safety` (see judge.ts); scoring works the same without it.
   */
  AI?: Ai;
}
