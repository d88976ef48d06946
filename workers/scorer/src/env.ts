import type { z } from "zod";
import type { scorerVars } from "./config";

/**
 * Bindings of the scorer worker, declared once: `ScorerBindings`, generated from
 * workers/scorer/wrangler.jsonc by `npm run types` (HYPERDRIVE; SCORING_QUEUE, the producer of
 * scoring-jobs used by the sweep; ALERT_QUEUE), joined with what its config schema reads as it
 * arrives (`scorerVars`, ./config.ts), which types ALERT_QUEUE with its message and adds the
 * optional variables that are not in the config (re-scoring, retention, the guard model's
 * backend, DATABASE_URL). Code reads none of them directly: ./config.ts parses them once
 * (`scorerConfig`).
 */
export type ScorerEnv = ScorerBindings & z.input<typeof scorerVars>;
