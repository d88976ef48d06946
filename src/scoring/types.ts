/**
 * The scorer contract shared by the scorer worker, the evaluation script and the benchmark.
 *
 * A scorer is a pure, deterministic function of one logged LLM call: no I/O, no clock, no
 * randomness, CPU time linear in payload size. Scores follow the Likert scale of docs/decisions.md D10.
 */
import type { ScoreLabel, ScorerName } from "../enums";

/**
 * One logged call as the scorers see it: the fields of an `llm_requests` row.
 * `request_body`/`response_body` are the JSON documents as logged (OpenAI chat, Anthropic
 * messages, Cohere chat or a plain trace payload); `response_body` may be null.
 */
export interface ScorableCall {
  model: string;
  provider: string;
  /** Prompt tokens as logged (reported by the provider or estimated by the capture side). */
  prompt_tokens: number;
  completion_tokens: number;
  /** Cost of the call in US dollars; null when unknown. */
  cost_usd: number | null;
  /** Prompt tokens read from / written to the provider's prompt cache (parts of `prompt_tokens`); null or absent when not reported. */
  cache_read_tokens?: number | null | undefined;
  cache_write_tokens?: number | null | undefined;
  /** Wall-clock latency of the call in milliseconds. */
  latency_ms: number;
  request_body: unknown;
  response_body: unknown;
  metadata?: Record<string, unknown> | null;
}

/**
 * A scorer's verdict. `score_value` is an integer 1..5 (1: no sign of the risk, 5: a clear,
 * severe instance) or null with label `unscored`. The rationale names rules and evidence
 * kinds, never the secret or personal values themselves.
 */
export interface ScoreResult {
  score_value: 1 | 2 | 3 | 4 | 5 | null;
  score_label: ScoreLabel;
  rationale: string;
}

/** A named scorer. */
export interface Scorer {
  name: ScorerName;
  score(call: ScorableCall): ScoreResult;
}

/** Label for a Likert value: 4-5 `unsafe`, 1-3 `safe`, null `unscored` (docs/decisions.md D10). */
export function labelFor(value: ScoreResult["score_value"]): ScoreLabel {
  if (value === null) return "unscored";
  return value >= 4 ? "unsafe" : "safe";
}
