/**
 * The contract of a learned scorer's spec: the rule scorer whose verdict its model reads as an
 * indicator (and which decides alone on a weight-5 hard rule), the view of the call the model
 * reads, the n-gram kinds, the fit's hyper-parameters and the false-alarm budget that sets the
 * operating points. Each scorer declares its spec in its room (`../scorers/<name>/spec.ts`);
 * `../specs.ts` lists them for the trainer. Nothing here imports a scorer or a model file.
 */
import type { JudgeHook } from "../judge/hook";
import type { ScorableCall, ScoreResult } from "../types";
import type { ScorerName } from "../../enums";
import type { Grams } from "./features";
import type { ModelView } from "./views";
import type { WindowSpec } from "./windows";

/**
 * Hyper-parameters of the fit (scripts/train/fit.py, scikit-learn `LogisticRegression`,
 * liblinear): `C`, the inverse L2 strength; `class_weight`; `family_balanced` p: items weighted
 * by 1 / (their source family's size)^p, so every source counts alike (absent: no weighting).
 */
export interface FitParameters {
  C: number;
  class_weight: "balanced";
  family_balanced?: number;
}

/**
 * The false-alarm budget under which `npm run train` chooses the operating points
 * (docs/scoring.md): `max_fpr`, the share of all safe items flagged by models that never saw
 * their source (leave-one-source-out, pooled); `max_traffic_fpr`, the share of ordinary traffic
 * flagged out of fold; `high_precision`, the leave-one-source-out precision from which a
 * verdict is a 5. `min_threshold` (optional, a calibrated probability) keeps the Likert-4
 * threshold at or above it: for a model whose rules carry its recall, below even odds the model
 * alone is no evidence (vector_weakness, docs/scoring.md "Round 7c").
 */
export interface FalseAlarmBudget {
  max_fpr: number;
  max_traffic_fpr: number;
  high_precision: number;
  min_threshold?: number;
}

/** The budget every scorer has today: 3% pooled leave-one-source-out, 0.5% traffic, 95% precision for a 5. */
export const DEFAULT_BUDGET: FalseAlarmBudget = { max_fpr: 0.03, max_traffic_fpr: 0.005, high_precision: 0.95 };

/** Rules, view, n-gram kinds and fit settings of one learned scorer. */
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
  fit: FitParameters;
  budget: FalseAlarmBudget;
  /**
   * Long segments are also read in windows and the highest probability kept (`WindowSpec`,
   * ./windows.ts); absent: every text is read whole.
   */
  windows?: WindowSpec;
  /** Where the guard-model tier may overrule this scorer (src/scoring/judge/); absent: never judged. */
  judge?: JudgeHook;
}

/** What a spec gives besides its name, rules and view; `budget` defaults to `DEFAULT_BUDGET`. */
type SpecSettings = Omit<LearnedSpec, "name" | "rules" | "view" | "budget"> & { budget?: FalseAlarmBudget };

/**
 * A learned scorer's spec: its `name`, its rule scorer (`rules`) and the `view` its model reads,
 * with its n-gram kinds, fit and the rest of `LearnedSpec` (the `DEFAULT_BUDGET` unless it gives one).
 */
export function learnedSpec(name: ScorerName, rules: LearnedSpec["rules"], view: LearnedSpec["view"], settings: SpecSettings): LearnedSpec {
  return { name, rules, view, budget: DEFAULT_BUDGET, ...settings };
}

/** Whether `spec`'s model judges `call` given the rules' verdict (`LearnedSpec.judges`). */
export function modelJudges(spec: LearnedSpec, call: ScorableCall, rule: ScoreResult): boolean {
  return rule.score_value !== null && (spec.judges?.(call) ?? true);
}

/** A rule verdict that decides without the model: a weight-5 rule (valid card, known template...). */
export function isHardRule(rule: ScoreResult): boolean {
  return rule.score_value === 5;
}
