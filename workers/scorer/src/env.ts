/** Bindings of the scorer worker (workers/scorer/wrangler.toml). */
export interface ScorerEnv {
  HYPERDRIVE: Hyperdrive;
  /** Producer binding of scoring-jobs, used by the sweep. */
  SCORING_QUEUE: Queue<unknown>;
  /** Alternative to Hyperdrive (Neon serverless driver). */
  DATABASE_URL?: string;
  NEON_WSPROXY?: string;
}
