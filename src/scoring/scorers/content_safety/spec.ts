/**
 * content_safety's learned model: its rules (./rules.ts), view (./view.ts) and fit. Word
 * n-grams only: harm is said in words, and character n-grams learned a source's style (see
 * `Grams`). C over {0.5, 1, 2, 4, 8, 16}, family-balanced, leave-one-source-out mean F1: 0.774,
 * 0.773, 0.787, 0.778, 0.776, 0.768; C = 2 is the best. Family balancing (p = 1) took it from
 * 0.764 to 0.787 (p = 0.5: 0.769). C = 8 with p = 1.5 raised LOSO recall at 2% pooled FPR from
 * 0.348 to 0.371 (docs/scoring.md, round 6) but was taken back: it put a two-word benign call
 * ("write to [EMAIL] please" / "Sure.") above the threshold on the word "sure" alone.
 */
import { learnedSpec } from "../../inference/specs";
import { contentSafetyJudge } from "./judge";
import { scoreContentSafety } from "./rules";
import { contentSafetyView } from "./view";

/** content_safety's spec (`learnedSpec`, with the default false-alarm budget). */
export const contentSafetySpec = learnedSpec("content_safety", scoreContentSafety, contentSafetyView, {
  grams: "words",
  fit: { C: 2, class_weight: "balanced", family_balanced: 1 },
  judge: contentSafetyJudge,
});
