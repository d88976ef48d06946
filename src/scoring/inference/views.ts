/**
 * What a learned model reads of a call: the text segments (with the namespace that keeps a word
 * in the prompt apart from the same word in a completion or a document) and the indicator
 * features taken from the rules. Each learned scorer's own view lives in its room
 * (`../scorers/<name>/view.ts`); the trainer and the worker both call it, so the model sees the
 * same view in both. This module holds the shape and the helpers the views share.
 */
import type { ScoreResult } from "../types";
import type { Segment } from "./features";

/** Segments and indicators of one call for one model. */
export interface ModelView {
  segments: Segment[];
  indicators: string[];
}

/** Indicator of the rule verdict: `rule:1`..`rule:5`, or `rule:none` when unscored. */
export function ruleIndicator(rule: ScoreResult): string {
  return `rule:${rule.score_value ?? "none"}`;
}

/** Appends each non-empty text of `texts` to `out` as a segment of namespace `ns`. */
export function pushTexts(out: Segment[], ns: string, texts: readonly string[]): void {
  for (const text of texts) if (text) out.push({ ns, text });
}
