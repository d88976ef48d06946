import { extracted } from "../../rules";
import { ownWords } from "../../text";
import type { ScorableCall, ScoreResult } from "../../types";
import type { Segment } from "../../inference/features";
import { type ModelView, pushTexts as push, ruleIndicator } from "../../inference/views";
import { jailbreakFrames } from "./frames";

/**
 * jailbreak_detection: the attack is in what the user (or replayed history) sends, and the
 * completion shows whether it worked, each in its own namespace. User turns are read in their
 * author's own words: documents pasted into them (`ownWords`) are supplied context, judged by
 * vector_weakness (an indirect injection), and reading them taught the model that Wikipedia
 * paragraphs and meeting transcripts look like attacks.
 *
 * The system prompt is not read (round 7b, docs/scoring.md): it is the developer's, and an
 * ordinary app's system prompt is never jailbreak evidence. Read as text, it taught the model
 * that a system prompt at all marks an attack (the prompt-injection sources carry one, the
 * benign role-play sources none): ordinary RAG calls, whose system prompt says "use the provided
 * documents", were most of its false alarms on ordinary traffic. The rules still read it for its
 * guard clauses (`guarded_topic_probe`), and their verdict is an indicator.
 *
 * Indicators: the rule verdict and the jailbreak frames of the user's turns (./frames.ts).
 */
export function jailbreakView(call: ScorableCall, rule: ScoreResult): ModelView {
  const x = extracted(call);
  const segments: Segment[] = [];
  const user = x.user.map(ownWords);
  push(segments, "u", user);
  push(segments, "h", x.history);
  push(segments, "c", x.completion);
  return { segments, indicators: [ruleIndicator(rule), ...jailbreakFrames(user)] };
}
