import { completionStance } from "../../refusal";
import { extracted } from "../../rules";
import type { ScorableCall, ScoreResult } from "../../types";
import type { Segment } from "../../inference/features";
import { type ModelView, pushTexts as push, ruleIndicator } from "../../inference/views";

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
