/**
 * What each learned model reads of a call: the text segments (with the namespace that keeps
 * a word in the prompt apart from the same word in a completion or a document) and the
 * indicator features taken from the rules. One function per scorer; the trainer and the
 * worker both call these, so the model sees the same view in both.
 */
import { answerTokens, callQuestionTokens, jaccard, prosePassageSets, supports } from "../data-poisoning";
import { completionStance } from "../refusal";
import { extracted } from "../rules";
import { ownWords } from "../text";
import type { ScorableCall, ScoreResult } from "../types";
import { callDocumentUnits, isDirective } from "../vector-weakness";
import type { Segment } from "./features";

/** Segments and indicators of one call for one model. */
export interface ModelView {
  segments: Segment[];
  indicators: string[];
}

/** Indicator of the rule verdict: `rule:1`..`rule:5`, or `rule:none` when unscored. */
function ruleIndicator(rule: ScoreResult): string {
  return `rule:${rule.score_value ?? "none"}`;
}

function push(out: Segment[], ns: string, texts: readonly string[]): void {
  for (const text of texts) if (text) out.push({ ns, text });
}

/**
 * content_safety reads what the call's label is about: the completion when there is one, the
 * user's turns (and the system prompt) when there is none. The sources agree on that rule: a
 * harmful question answered by a refusal is safe and the same question alone is unsafe
 * (SOURCES.md: cs_refusal, cs_jailbreak_prompt, gptfuzz_evaluate), a reply is judged by what
 * it says (cs_toxigen_reply, cs_selfdefense). Reading the prompt of every answered call taught
 * the model the opposite of both: hazard words weighed little because refused questions
 * carried them as safe. When the completion complies (substantive content with compliance
 * cues, `stance`), what was asked for says what was delivered, so the user's turns are read
 * too: "write a phishing email" answered by one. The prompt of any call also counts through
 * the rules (their verdict is an indicator, and a hard rule decides alone).
 *
 * The text is read in a namespace shared by prompts and completions (`t`), so hazard
 * vocabulary learned from harmful requests also counts in harmful answers and the reverse, and
 * the completion once more on its own (`c`). Indicators: the rule verdict and the completion's
 * stance (answered, refusal and compliance cues). Leave-one-source-out mean F1, word n-grams
 * only (`Grams`): 0.798 with the prompt of every answered call read, 0.817 with the completion
 * alone, 0.813 with this view (0.813-0.827 over four fold seeds, the completion alone
 * 0.809-0.817); with character n-grams as well 0.787 (bench/results/eval-loso.md).
 */
export function contentSafetyView(call: ScorableCall, rule: ScoreResult): ModelView {
  const x = extracted(call);
  const completion = x.completion.join("\n");
  const s = completion.trim().length > 0 ? completionStance(x) : undefined;
  const segments: Segment[] = [];
  const indicators = [ruleIndicator(rule)];
  if (s) {
    segments.push({ ns: "t", text: completion }, { ns: "c", text: completion });
    indicators.push("answered");
    if (s.refused) indicators.push("refused");
    if (s.complied) indicators.push("complied");
  } else push(segments, "s", x.system);
  if (!s || s.complied) {
    push(segments, "t", x.user);
    push(segments, "t", x.history);
  }
  return { segments, indicators };
}

/**
 * jailbreak_detection: the attack is in what the user (or replayed history) sends; the system
 * prompt is the developer's and the completion shows whether it worked, each in its own
 * namespace. User turns and system prompts are read in their author's own words: documents
 * pasted into them (`ownWords`) are supplied context, judged by vector_weakness (an indirect
 * injection), and reading them taught the model that Wikipedia paragraphs and meeting
 * transcripts look like attacks. Indicator: the rule verdict.
 */
export function jailbreakView(call: ScorableCall, rule: ScoreResult): ModelView {
  const x = extracted(call);
  const segments: Segment[] = [];
  push(segments, "u", x.user.map(ownWords));
  push(segments, "h", x.history);
  push(segments, "s", x.system.map(ownWords));
  push(segments, "c", x.completion);
  return { segments, indicators: [ruleIndicator(rule)] };
}

/**
 * vector_weakness: the supplied context alone (tool results, retrieved-document messages,
 * documents appended to the system prompt or pasted into the user turn: see `../text.ts`), where
 * an indirect injection lives; the user's chat and the developer's system prompt are not read
 * (they taught the model each source's chat wording, and ordinary chats were flagged).
 * Directive-looking units of each document are read again in their own namespace, so that a
 * planted instruction is not drowned by the document's bulk. Indicator: the rule verdict.
 * Only called for calls with documents (the rules leave any other call `unscored`).
 */
export function vectorWeaknessView(call: ScorableCall, rule: ScoreResult): ModelView {
  const x = extracted(call);
  const segments: Segment[] = [];
  push(segments, "d", x.documents);
  for (const units of callDocumentUnits(x)) push(segments, "dd", units.filter(isDirective));
  return { segments, indicators: [ruleIndicator(rule)] };
}

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
  for (let i = 1; i < x.documents.length && i < sets.length; i++) if (x.documents[i]!.length > x.documents[longest]!.length) longest = i;
  indicators.push(sup[longest] ? "longest:support" : "longest:dissent");
  if (nSup >= 1 && count((i) => !sup[i] && rel[i]! >= 0.3) >= 1) indicators.push("support_and_relevant_dissent");
  return { segments: [], indicators };
}
