import type { ScorableCall } from "../../../src/scoring/types";

/** An OpenAI chat call with the given messages and optional assistant answer. */
export function chat(messages: Array<{ role: string; content: unknown }>, answer?: string, extra: Partial<ScorableCall> = {}): ScorableCall {
  return {
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 100,
    completion_tokens: 20,
    cost_usd: 0,
    latency_ms: 0,
    request_body: { model: "gpt-4o-mini", messages },
    response_body: answer === undefined ? null : { choices: [{ message: { role: "assistant", content: answer }, finish_reason: "stop" }] },
    ...extra,
  };
}

/** A single user prompt, optionally answered. */
export function ask(prompt: string, answer?: string): ScorableCall {
  return chat([{ role: "user", content: prompt }], answer);
}
