/**
 * The guard-model tier's pure decisions (docs/scoring.md "Guard-model tier"): which scores a
 * project's policy sends to a guard model (`judgeHook`), and how a verdict replaces the local
 * score (`mergeVerdict`). The I/O (backends, budget, timeouts) is workers/scorer/src/judge/.
 */
import type { JudgeMode } from "../../enums";
import { labelAt, type PolicyScore } from "../../policy/apply";
import { contentSafetySpec } from "../scorers/content_safety/spec";
import { dataPoisoningSpec } from "../scorers/data_poisoning/spec";
import { jailbreakSpec } from "../scorers/jailbreak_detection/spec";
import { vectorWeaknessSpec } from "../scorers/vector_weakness/spec";
import type { ScorerName } from "../types";
import type { JudgeHook } from "./hook";
import type { GuardVerdict } from "./parse";

/** The judged scorers' hooks, as their rooms declare them (`LearnedSpec.judge`). */
export const JUDGE_HOOKS: Partial<Record<ScorerName, JudgeHook>> = Object.fromEntries(
  [contentSafetySpec, jailbreakSpec, vectorWeaknessSpec, dataPoisoningSpec].map((s) => [s.name, s.judge]),
);

/**
 * The hook under which `score` goes to a guard model under policy mode `mode`, or null: never
 * under `off`, for an `unscored` score or a scorer without a hook; under `uncertain` only when
 * the value lies inside the hook's band; under `all` always.
 */
export function judgeHook(mode: JudgeMode, score: Pick<PolicyScore, "scorer_name" | "score_value">): JudgeHook | null {
  const hook = JUDGE_HOOKS[score.scorer_name];
  if (mode === "off" || !hook || score.score_value === null) return null;
  if (mode === "all") return hook;
  return score.score_value >= hook.band[0] && score.score_value <= hook.band[1] ? hook : null;
}

/**
 * `score` decided by guard model `model`: the verdict sets the label, and the Likert value
 * moves just far enough for it: unsafe raises the value to at least `max(4, unsafe_at)` (a 5
 * stays 5), safe lowers it to at most `min(3, unsafe_at - 1)`. The rationale starts with who
 * decided (`judged by <model>: unsafe (<reason>)`) and keeps the local one after `; local: `;
 * `decided_by` is the model id. An unscored score is returned unchanged.
 */
export function mergeVerdict(score: PolicyScore, verdict: GuardVerdict, model: string): PolicyScore {
  if (score.score_value === null) return score;
  const value = (verdict.unsafe ? Math.max(score.score_value, 4, score.unsafe_at) : Math.min(score.score_value, 3, score.unsafe_at - 1)) as 1 | 2 | 3 | 4 | 5;
  const said = verdict.unsafe ? `unsafe${verdict.reason ? ` (${verdict.reason})` : ""}` : `safe${verdict.reason ? ` (${verdict.reason})` : ""}`;
  return {
    ...score,
    score_value: value,
    score_label: labelAt(value, score.unsafe_at),
    rationale: `judged by ${model}: ${said}; local: ${score.rationale}`,
    decided_by: model,
  };
}
