/**
 * jailbreak_detection's learned model: its rules (./rules.ts), view (./view.ts) and fit.
 * Adversarial suffixes, encodings and markup live in the characters, so it reads word and
 * character n-grams. Family balancing (p = 1) took leave-one-source-out mean F1 from 0.819 to
 * 0.833.
 */
import { learnedSpec } from "../../inference/specs";
import { jailbreakJudge } from "./judge";
import { scoreJailbreak } from "./rules";
import { jailbreakView } from "./view";

/** jailbreak_detection's spec (`learnedSpec`, with the default false-alarm budget). */
export const jailbreakSpec = learnedSpec("jailbreak_detection", scoreJailbreak, jailbreakView, {
  grams: "words+chars",
  fit: { C: 4, class_weight: "balanced", family_balanced: 1 },
  judge: jailbreakJudge,
});
