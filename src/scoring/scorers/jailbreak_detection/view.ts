import { extracted } from "../../rules";
import { ownWords } from "../../text";
import type { ScorableCall, ScoreResult } from "../../types";
import type { Segment } from "../../inference/features";
import { type ModelView, pushTexts as push, ruleIndicator } from "../../inference/views";

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
