/**
 * The scorers that have a learned model beside their rules: for each, the rule scorer whose
 * verdict the model reads as an indicator (and which decides alone on a weight-5 hard rule)
 * and the view of the call the model reads. Used by the worker (`learned.ts`) and the trainer
 * (`scripts/train/export.ts`); it imports no model file, so training works before any exists.
 */
import { scoreContentSafety } from "../content-safety";
import { scoreDataPoisoning } from "../data-poisoning";
import { scoreJailbreak } from "../jailbreak-detection";
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
}

/** Scorers with a model, in SCORER_NAMES order. */
export const LEARNED_SPECS = {
  // Words only: harm is said in words, and character n-grams learned a source's style (see `Grams`).
  content_safety: { name: "content_safety", rules: scoreContentSafety, view: contentSafetyView, grams: "words" },
  // Adversarial suffixes, encodings and markup live in the characters.
  jailbreak_detection: { name: "jailbreak_detection", rules: scoreJailbreak, view: jailbreakView, grams: "words+chars" },
  data_poisoning: { name: "data_poisoning", rules: scoreDataPoisoning, view: dataPoisoningView, grams: "words+chars" },
  vector_weakness: { name: "vector_weakness", rules: scoreVectorWeakness, view: vectorWeaknessView, grams: "words+chars" },
} as const satisfies Record<string, LearnedSpec>;

/** Names of the scorers that have a model. */
export type LearnedName = keyof typeof LEARNED_SPECS;

/** A rule verdict that decides without the model: a weight-5 rule (valid card, known template...). */
export function isHardRule(rule: ScoreResult): boolean {
  return rule.score_value === 5;
}
