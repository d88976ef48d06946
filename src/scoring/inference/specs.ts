/**
 * The scorers that have a learned model beside their rules: for each, the rule scorer whose
 * verdict the model reads as an indicator (and which decides alone on a weight-5 hard rule)
 * and the view of the call the model reads. Used by the worker (`../learned.ts`) and the trainer
 * (`scripts/train/export.ts`); it imports no model file, so training works before any exists.
 */
import { scoreContentSafety } from "../content-safety";
import { scoreDataPoisoning, takesSides } from "../data-poisoning";
import { scoreJailbreak } from "../jailbreak-detection";
import { extracted } from "../rules";
import type { ScorableCall, ScoreResult, ScorerName } from "../types";
import type { Grams } from "./features";
import { scoreVectorWeakness } from "../vector-weakness";
import { contentSafetyView, dataPoisoningView, jailbreakView, type ModelView, vectorWeaknessView } from "./views";

/** Rules, view and n-gram kinds of one learned scorer. */
export interface LearnedSpec {
  name: ScorerName;
  rules: (call: ScorableCall) => ScoreResult;
  view: (call: ScorableCall, rule: ScoreResult) => ModelView;
  /** The n-grams its model reads (`Grams`); recorded in the model file, which inference follows. */
  grams: Grams;
  /**
   * Whether the model judges a scored call at all (default: every call the rules score). When
   * it does not, the rules' verdict stands, capped at 3 unless a hard rule fired.
   */
  judges?: (call: ScorableCall) => boolean;
}

/** Scorers with a model, in SCORER_NAMES order. */
export const LEARNED_SPECS = {
  // Words only: harm is said in words, and character n-grams learned a source's style (see `Grams`).
  content_safety: { name: "content_safety", rules: scoreContentSafety, view: contentSafetyView, grams: "words" },
  // Adversarial suffixes, encodings and markup live in the characters.
  jailbreak_detection: { name: "jailbreak_detection", rules: scoreJailbreak, view: jailbreakView, grams: "words+chars" },
  // The model weighs the shape of a contradiction: only where the answer takes a side (`takesSides`).
  data_poisoning: {
    name: "data_poisoning",
    rules: scoreDataPoisoning,
    view: dataPoisoningView,
    grams: "words+chars",
    judges: (call) => takesSides(extracted(call)),
  },
  vector_weakness: { name: "vector_weakness", rules: scoreVectorWeakness, view: vectorWeaknessView, grams: "words+chars" },
} as const satisfies Record<string, LearnedSpec>;

/** Whether `spec`'s model judges `call` given the rules' verdict (`LearnedSpec.judges`). */
export function modelJudges(spec: LearnedSpec, call: ScorableCall, rule: ScoreResult): boolean {
  return rule.score_value !== null && (spec.judges?.(call) ?? true);
}

/** Names of the scorers that have a model. */
export type LearnedName = keyof typeof LEARNED_SPECS;

/** A rule verdict that decides without the model: a weight-5 rule (valid card, known template...). */
export function isHardRule(rule: ScoreResult): boolean {
  return rule.score_value === 5;
}
