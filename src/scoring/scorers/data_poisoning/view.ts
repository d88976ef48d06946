import { extracted } from "../../rules";
import type { ScorableCall, ScoreResult } from "../../types";
import { type ModelView, ruleIndicator } from "../../inference/views";
import { answerTokens, callQuestionTokens, jaccard, prosePassages, prosePassageSets, supports } from "./rules";

const bucket = (n: number, max: number) => String(Math.min(n, max));

/**
 * data_poisoning: structural measurements of one call, as indicators (no n-grams: the claim
 * values differ per call, the shape of a contradiction does not). Q = the question's tokens,
 * A = the completion's tokens found in some passage and not in Q; a passage supports A when it
 * holds 60% of A; it is relevant when it holds 30% (50%) of Q and crafted at 60% (PoisonedRAG,
 * Zou et al. 2024, writes planted passages around the question). Counts are bucketed.
 */
export function dataPoisoningView(call: ScorableCall, rule: ScoreResult): ModelView {
  const x = extracted(call);
  const indicators = [ruleIndicator(rule)];
  const sets = prosePassageSets(x);
  indicators.push(`passages:${bucket(sets.length, 5)}`);
  if (sets.length === 0) return { segments: [], indicators };
  const q = callQuestionTokens(x);
  const answer = answerTokens(x.completion.join("\n"), q, sets);
  indicators.push(answer.length === 0 ? "answer:none" : `answer:${bucket(answer.length, 4)}`);
  const qs = [...q];
  const rel = sets.map((s) => (qs.length === 0 ? 0 : qs.filter((t) => s.has(t)).length / qs.length));
  const sup = sets.map((s) => supports(s, answer));
  const count = (f: (i: number) => boolean) => sets.reduce((n, _s, i) => n + (f(i) ? 1 : 0), 0);
  const nSup = count((i) => sup[i]!);
  indicators.push(`support:${bucket(nSup, 3)}`, `dissent:${bucket(sets.length - nSup, 3)}`);
  for (const [name, t] of [
    ["rel30", 0.3],
    ["rel50", 0.5],
  ] as const) {
    indicators.push(
      `${name}_dissent:${bucket(
        count((i) => !sup[i] && rel[i]! >= t),
        2,
      )}`,
    );
  }
  indicators.push(
    `crafted_support:${bucket(
      count((i) => sup[i]! && rel[i]! >= 0.6),
      3,
    )}`,
  );
  indicators.push(
    `crafted_dissent:${bucket(
      count((i) => !sup[i] && rel[i]! >= 0.6),
      2,
    )}`,
  );
  indicators.push(
    `plain_support:${bucket(
      count((i) => sup[i]! && rel[i]! < 0.6),
      2,
    )}`,
  );
  let maxJ = 0;
  let pairs = 0;
  for (let i = 0; i < sets.length; i++) {
    if (!sup[i]) continue;
    for (let j = 0; j < sets.length; j++) {
      if (sup[j]) continue;
      const jac = jaccard(sets[i]!, sets[j]!);
      if (jac > maxJ) maxJ = jac;
      if (jac >= 0.45) pairs++;
    }
  }
  indicators.push(`maxjac:${bucket(Math.floor(maxJ * 10), 9)}`, `pairs:${bucket(pairs, 2)}`);
  let longest = 0;
  const prose = prosePassages(x);
  for (let i = 1; i < prose.length; i++) if (prose[i]!.length > prose[longest]!.length) longest = i;
  indicators.push(sup[longest] ? "longest:support" : "longest:dissent");
  if (nSup >= 1 && count((i) => !sup[i] && rel[i]! >= 0.3) >= 1) indicators.push("support_and_relevant_dissent");
  return { segments: [], indicators };
}
