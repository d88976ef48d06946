/**
 * The scorer registry: the six scorers in SCORER_NAMES order and `scoreCall`, which the
 * scorer worker, the evaluation script and the benchmark all use.
 */
import { LEARNED } from "./learned";
import { piiDetection } from "./pii-detection";
import { unboundedConsumption } from "./unbounded-consumption";
import type { ScorableCall, ScoreResult, Scorer, ScorerName } from "./types";

/** All six scorers, in SCORER_NAMES order. */
export const SCORERS: readonly Scorer[] = [
  LEARNED.content_safety,
  piiDetection,
  LEARNED.jailbreak_detection,
  LEARNED.data_poisoning,
  LEARNED.vector_weakness,
  unboundedConsumption,
];

/** One scorer's verdict tagged with its name, as stored in `safety_scores`. */
export type NamedScore = { scorer_name: ScorerName } & ScoreResult;

/**
 * Runs all six scorers on one call. A scorer that throws yields
 * `{score_value: null, score_label: "unscored", rationale: "scorer failed: <error class>"}`
 * (the class name only: error messages could quote payload text).
 */
export function scoreCall(call: ScorableCall): NamedScore[] {
  return SCORERS.map((s) => {
    try {
      return { scorer_name: s.name, ...s.score(call) };
    } catch (err) {
      const cls = err instanceof Error ? err.constructor.name || "Error" : typeof err;
      return { scorer_name: s.name, score_value: null, score_label: "unscored", rationale: `scorer failed: ${cls}` };
    }
  });
}
