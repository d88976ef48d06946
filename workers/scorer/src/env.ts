/** Bindings of the scorer worker (workers/scorer/wrangler.toml). */
export interface ScorerEnv {
  HYPERDRIVE: Hyperdrive;
  /** Producer binding of scoring-jobs, used by the sweep. */
  SCORING_QUEUE: Queue<unknown>;
  /** Alternative to Hyperdrive (Neon serverless driver). */
  DATABASE_URL?: string;
  NEON_WSPROXY?: string;
  /**
   * Workers AI, off by default (`[ai]` in wrangler.toml). When bound, Llama Guard 3 refines
   * `content_safety` (see judge.ts); scoring works the same without it.
   */
  AI?: Ai;
}
