/**
 * vector_weakness's learned model: its rules (./rules.ts), view (./view.ts: the supplied
 * documents) and fit. Family balancing (p = 1) took leave-one-source-out mean F1 from 0.780 to
 * 0.814.
 */
import { DEFAULT_BUDGET, type LearnedSpec } from "../../inference/specs";
import { vectorWeaknessJudge } from "./judge";
import { scoreVectorWeakness } from "./rules";
import { vectorWeaknessView } from "./view";

/** vector_weakness's spec (`LearnedSpec`). */
export const vectorWeaknessSpec = {
  name: "vector_weakness",
  rules: scoreVectorWeakness,
  view: vectorWeaknessView,
  grams: "words+chars",
  fit: { C: 4, class_weight: "balanced", family_balanced: 1 },
  budget: DEFAULT_BUDGET,
  judge: vectorWeaknessJudge,
} as const satisfies LearnedSpec;
