/**
 * The scorer registry: the six scorers in SCORER_NAMES order, one room each under
 * `./scorers/<name>/`. Calls are scored under a project's policy by `scoreCall`
 * (src/policy/apply.ts), which the scorer worker, the evaluation script and the benchmarks all use.
 */
import type { ModelFile } from "./inference/linear";
import type { JudgeHook } from "./judge/hook";
import { contentSafetySpec } from "./scorers/content_safety/spec";
import { dataPoisoningSpec } from "./scorers/data_poisoning/spec";
import { jailbreakSpec } from "./scorers/jailbreak_detection/spec";
import { vectorWeaknessSpec } from "./scorers/vector_weakness/spec";
import { contentSafety, contentSafetyModel } from "./scorers/content_safety/scorer";
import { dataPoisoning, dataPoisoningModel } from "./scorers/data_poisoning/scorer";
import { jailbreakDetection, jailbreakDetectionModel } from "./scorers/jailbreak_detection/scorer";
import { piiDetection } from "./scorers/pii_detection/rules";
import { unboundedConsumption } from "./scorers/unbounded_consumption/rules";
import { vectorWeakness, vectorWeaknessModel } from "./scorers/vector_weakness/scorer";
import type { LearnedName } from "./specs";
import type { ScoreResult, Scorer } from "./types";
import type { ScorerName } from "../enums";

/** All six scorers, in SCORER_NAMES order. */
export const SCORERS: readonly Scorer[] = [contentSafety, piiDetection, jailbreakDetection, dataPoisoning, vectorWeakness, unboundedConsumption];

/** The learned scorers, keyed by name. */
export const LEARNED: Record<LearnedName, Scorer> = {
  content_safety: contentSafety,
  jailbreak_detection: jailbreakDetection,
  data_poisoning: dataPoisoning,
  vector_weakness: vectorWeakness,
};

/** The learned scorers' model files, for tests and the manifest check. */
export const MODEL_FILES: Record<LearnedName, ModelFile> = {
  content_safety: contentSafetyModel,
  jailbreak_detection: jailbreakDetectionModel,
  data_poisoning: dataPoisoningModel,
  vector_weakness: vectorWeaknessModel,
};

/**
 * The guard-model tier's hooks of the judged scorers, as their rooms declare them on their specs
 * (`LearnedSpec.judge`, each room's judge.ts); `pii_detection` and `unbounded_consumption` have none.
 */
export const JUDGE_HOOKS: Partial<Record<ScorerName, JudgeHook>> = Object.fromEntries(
  [contentSafetySpec, jailbreakSpec, vectorWeaknessSpec, dataPoisoningSpec].map((s) => [s.name, s.judge]),
);

/** One scorer's verdict tagged with its name, as stored in `safety_scores`. */
export type NamedScore = { scorer_name: ScorerName } & ScoreResult;
