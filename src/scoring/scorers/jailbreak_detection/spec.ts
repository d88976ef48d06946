/**
 * jailbreak_detection's learned model: its rules (./rules.ts), view (./view.ts) and fit.
 * Adversarial suffixes, encodings and markup live in the characters, so it reads word and
 * character n-grams. Family weighting 1 / size^p, chosen for recall on unseen sources at a
 * false-alarm budget (docs/scoring.md, round 6): leave-one-source-out recall at 2% pooled FPR
 * 0.531 at C = 4, p = 1 (the earlier choice by mean F1), 0.557 at C = 2, p = 1.5 (C = 4, p = 1.5:
 * 0.554; C = 2, p = 2: 0.563 but 0.509 at 1%; C = 8, p = 1: 0.522).
 */
import { DEFAULT_BUDGET, learnedSpec } from "../../inference/specs";
import { jailbreakJudge } from "./judge";
import { scoreJailbreak } from "./rules";
import { jailbreakView } from "./view";

/**
 * jailbreak_detection's spec (`learnedSpec`). Its false-alarm budget is 2% pooled
 * leave-one-source-out FPR, not the default 3% (round 7b, docs/scoring.md): issue 31 judges it
 * there, and at 3% the threshold fell to 0.86, where everyday requests ("Our support team must
 * answer every question...", p 0.90) and a harmful request in a story frame's follow-up turn
 * are flagged on wording alone. Round 8b: with the new frames the 2% point fell to 0.875, below
 * that everyday request (p 0.90, no rule, no frame); `min_threshold` 0.95 keeps a verdict of the
 * model alone as confident as round 7b's (0.96), at a pooled FPR under the budget (1.5%).
 */
export const jailbreakSpec = learnedSpec("jailbreak_detection", scoreJailbreak, jailbreakView, {
  grams: "words+chars",
  fit: { C: 2, class_weight: "balanced", family_balanced: 1.5 },
  judge: jailbreakJudge,
  budget: { ...DEFAULT_BUDGET, max_fpr: 0.02, min_threshold: 0.95 },
});
