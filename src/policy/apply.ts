/**
 * Scoring under a project's policy (docs/policy.md): `scoreCall`, the one path by which the
 * scorer worker (scoring and re-scoring), `npm run eval` and the benchmarks score a call. Disabled scorers do not run (no score row), `pii_detection` spares the
 * allow list (or reuses the verdict taken before masking, ./mask.ts), and each label is set
 * from the scorer's `unsafe_at`. Every score carries what it was made with: `scorer_version`
 * (src/scoring/version.ts), `unsafe_at` and `policy_version`, so a later policy change does not
 * relabel stored scores (only a re-score does, docs/rescoring.md).
 */
import { type NamedScore, SCORERS } from "../scoring/registry";
import { piiAllowList } from "../pii/detect";
import { piiDetectionAllowing } from "../scoring/scorers/pii_detection/rules";
import type { ScorableCall, ScoreResult, Scorer } from "../scoring/types";
import { LOCAL_DECIDER, type ScoreLabel } from "../enums";
import { SCORER_VERSIONS } from "../scoring/version";
import { maskedVerdict } from "./mask";
import { DEFAULT_POLICY, type ProjectPolicy, type VersionedPolicy } from "./schema";

/**
 * A verdict ready to store: the scorer's result relabelled by the policy, with its provenance;
 * `decided_by` is `LOCAL_DECIDER` or the id of the guard model that decided it
 * (src/policy/judge.ts).
 */
export interface PolicyScore extends NamedScore {
  scorer_version: string;
  unsafe_at: number;
  policy_version: number;
  decided_by: string;
}

/** The label of a Likert value under `unsafeAt`: `unsafe` from it up, `unscored` for null. */
export function labelAt(value: ScoreResult["score_value"], unsafeAt: number): ScoreLabel {
  if (value === null) return "unscored";
  return value >= unsafeAt ? "unsafe" : "safe";
}

/**
 * Runs one scorer. A scorer that throws yields
 * `{score_value: null, score_label: "unscored", rationale: "scorer failed: <error class>"}`
 * (the class name only: error messages could quote payload text).
 */
function run(scorer: Scorer, call: ScorableCall): NamedScore {
  try {
    return { scorer_name: scorer.name, ...scorer.score(call) };
  } catch (err) {
    const cls = err instanceof Error ? err.constructor.name || "Error" : typeof err;
    return { scorer_name: scorer.name, score_value: null, score_label: "unscored", rationale: `scorer failed: ${cls}` };
  }
}

/**
 * The verdicts of the scorers `policy` enables, in SCORER_NAMES order (labels not yet set by the
 * policy: see `underPolicy`). `pii_detection` of a masked call is its ingest-time verdict.
 */
function scoreEnabled(call: ScorableCall, policy: ProjectPolicy): NamedScore[] {
  const allow = piiAllowList(policy.scorers.pii_detection.allow);
  const out: NamedScore[] = [];
  for (const scorer of SCORERS) {
    if (!policy.scorers[scorer.name].enabled) continue;
    if (scorer.name === "pii_detection") {
      const masked = maskedVerdict(call.metadata);
      if (masked) {
        out.push({ scorer_name: "pii_detection", score_value: masked.score_value, score_label: labelAt(masked.score_value, 4), rationale: masked.rationale });
        continue;
      }
      out.push(run(allow ? piiDetectionAllowing(allow) : scorer, call));
    } else out.push(run(scorer, call));
  }
  return out;
}

/** Version overrides for one call: a masked call's `pii_detection` verdict keeps the version it was taken with. */
function callVersions(call: ScorableCall): Partial<Record<string, string>> {
  const masked = maskedVerdict(call.metadata);
  return masked ? { pii_detection: masked.scorer_version } : {};
}

/** The default policy at version 0, for a project that never set one (and for evaluation). */
export const DEFAULT_VERSIONED_POLICY: VersionedPolicy = { policy: DEFAULT_POLICY, version: 0 };

/**
 * The local scores to store for one call under a policy: the enabled scorers' verdicts, in
 * SCORER_NAMES order, labelled by the policy's `unsafe_at` (the one place a local label is set)
 * and versioned, each `decided_by` `LOCAL_DECIDER`. The scorer worker may then have a guard
 * model decide some of them (src/policy/judge.ts `mergeVerdict`, which labels by the same
 * `unsafe_at`).
 */
export function scoreCall(call: ScorableCall, policy: VersionedPolicy = DEFAULT_VERSIONED_POLICY): PolicyScore[] {
  return underPolicy(scoreEnabled(call, policy.policy), policy, callVersions(call));
}

/**
 * `scores` labelled by the policy's `unsafe_at` and tagged with scorer version and policy
 * version. `versions` overrides a scorer's version (a masked call's pii_detection verdict).
 */
function underPolicy(scores: readonly NamedScore[], { policy, version }: VersionedPolicy, versions: Partial<Record<string, string>> = {}): PolicyScore[] {
  return scores.map((s) => {
    const unsafeAt = policy.scorers[s.scorer_name].unsafe_at;
    return {
      ...s,
      score_label: labelAt(s.score_value, unsafeAt),
      scorer_version: versions[s.scorer_name] ?? SCORER_VERSIONS[s.scorer_name],
      unsafe_at: unsafeAt,
      policy_version: version,
      decided_by: LOCAL_DECIDER,
    };
  });
}
