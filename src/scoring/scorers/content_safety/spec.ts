/**
 * content_safety's learned model: its rules (./rules.ts), view (./view.ts) and fit. Word
 * n-grams only: harm is said in words, and character n-grams learned a source's style (see
 * `Grams`). Chosen for recall on unseen sources at a false-alarm budget (docs/scoring.md, round
 * 6): over C {0.25, 0.5, 1, 2, 4, 8, 16} and family weighting 1 / size^p, p {0, 0.5, 1, 1.5, 2},
 * leave-one-source-out recall at 2% pooled FPR is highest at C = 8, p = 1.5 (0.371; C = 2, p = 1,
 * the earlier choice by mean F1 at F1-optimal thresholds: 0.348); p = 1.5 beat p = 1 at every C.
 */
import { learnedSpec } from "../../inference/specs";
import { contentSafetyJudge } from "./judge";
import { scoreContentSafety } from "./rules";
import { contentSafetyView } from "./view";

/** content_safety's spec (`learnedSpec`, with the default false-alarm budget). */
export const contentSafetySpec = learnedSpec("content_safety", scoreContentSafety, contentSafetyView, {
  grams: "words",
  fit: { C: 8, class_weight: "balanced", family_balanced: 1.5 },
  judge: contentSafetyJudge,
});
