/**
 * The guard-model tier's decisions under a project's policy (docs/scoring.md "Guard-model
 * tier"): which local scores go to a guard model (`judgeHook`: policy `judge` and the scorer's
 * uncertain band) and how a verdict decides a score (`mergeVerdict`). Pure; the worker's I/O
 * (backends, budget, timeouts) is workers/scorer/src/judge/, the prompts and parsers
 * src/scoring/judge/.
 */
import type { JudgeMode } from "../enums";
import { maskPiiText } from "../pii/mask";
import type { JudgeHook } from "../scoring/judge/hook";
import type { GuardVerdict } from "../scoring/judge/parse";
import { JUDGE_HOOKS } from "../scoring/registry";
import { labelAt, type PolicyScore } from "./apply";

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
 * the model's reason has personal data masked (`[EMAIL]`...), as rationales never carry it.
 * `decided_by` is the model id. An unscored score is returned unchanged.
 */
export function mergeVerdict(score: PolicyScore, verdict: GuardVerdict, model: string): PolicyScore {
  if (score.score_value === null) return score;
  const value = (verdict.unsafe ? Math.max(score.score_value, 4, score.unsafe_at) : Math.min(score.score_value, 3, score.unsafe_at - 1)) as 1 | 2 | 3 | 4 | 5;
  const reason = maskPiiText(verdict.reason);
  const said = `${verdict.unsafe ? "unsafe" : "safe"}${reason ? ` (${reason})` : ""}`;
  return {
    ...score,
    score_value: value,
    score_label: labelAt(value, score.unsafe_at),
    rationale: `judged by ${model}: ${said}; local: ${score.rationale}`,
    decided_by: model,
  };
}
