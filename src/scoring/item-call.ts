/**
 * A logged call built from bare request and response bodies: how the evaluation items
 * (`../shared/eval`, `{request_body, response_body}`) and the trainer's pinned inputs become
 * the `ScorableCall` the worker would score.
 */
import type { ScorableCall } from "./types";

/**
 * The ScorableCall of one pair of bodies: provider `openai`, cost 0, latency 0, model from
 * `request_body.model` ("unknown" when absent), token counts from `response_body.usage`
 * (`prompt_tokens`/`completion_tokens`, or `input_tokens`/`output_tokens`; 0 when absent).
 */
export function toCall(item: { request_body: unknown; response_body: unknown }): ScorableCall {
  const req = (item.request_body ?? {}) as { model?: unknown };
  const usage = ((item.response_body as { usage?: Record<string, unknown> } | null)?.usage ?? {}) as Record<string, unknown>;
  const tokens = (k: string, alt: string) => Number(usage[k] ?? usage[alt] ?? 0) || 0;
  return {
    model: typeof req.model === "string" ? req.model : "unknown",
    provider: "openai",
    prompt_tokens: tokens("prompt_tokens", "input_tokens"),
    completion_tokens: tokens("completion_tokens", "output_tokens"),
    cost_usd: 0,
    latency_ms: 0,
    request_body: item.request_body,
    response_body: item.response_body,
    metadata: null,
  };
}

/** An OpenAI chat call (`gpt-4o-mini`) with the given messages and optional assistant answer. */
export function chatCall(messages: Array<{ role: string; content: string }>, answer?: string): ScorableCall {
  const response_body = answer === undefined ? null : { choices: [{ message: { role: "assistant", content: answer }, finish_reason: "stop" }] };
  return toCall({ request_body: { model: "gpt-4o-mini", messages }, response_body });
}

/** A pinned input of a learned model: its probability is recorded by the trainer and re-checked by a unit test. */
export interface Pin {
  id: string;
  call: ScorableCall;
}
