import { extracted } from "../../rules";
import type { ScorableCall, ScoreResult } from "../../types";
import type { Segment } from "../../inference/features";
import { type ModelView, pushTexts as push, ruleIndicator } from "../../inference/views";
import { callDocumentUnits, isDirective } from "./rules";

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
