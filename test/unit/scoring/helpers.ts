import { it } from "vitest";
import { requestIntent } from "../../../src/scoring/scorers/content_safety/intent";
import { scoreContentSafety } from "../../../src/scoring/scorers/content_safety/rules";
import { contentSafetyView } from "../../../src/scoring/scorers/content_safety/view";
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

/** The indicators of content_safety's model view (`intent:harm`, `complied:intent:harm`...) for a prompt, optionally answered. */
export function viewIndicators(prompt: string, answer?: string): string[] {
  const call = ask(prompt, answer);
  return contentSafetyView(call, scoreContentSafety(call)).indicators;
}

/**
 * A table of cases (./cases/*.json): test name -> expected value (a label, or a PII kind) ->
 * the texts that must give it. The texts are data, so a new case is one line of the table.
 */
export type CaseTable = Record<string, Record<string, string[]>>;

/**
 * Declares one `it` per test name of `table`; `check(text, expected)` asserts one case and
 * names the text in its failure message, so a failing row is identified.
 */
export function itEachCase(table: CaseTable, check: (text: string, expected: string) => void): void {
  for (const [name, groups] of Object.entries(table)) {
    it(name, () => {
      for (const [expected, texts] of Object.entries(groups)) for (const text of texts) check(text, expected);
    });
  }
}

/**
 * content_safety's request-intent indicators of `q` that mark a request as harmful: all but
 * `intent:defensive`, which marks a request to resist or notice harm.
 */
export function harmIndicators(q: string): string[] {
  return requestIntent(q).filter((i) => i !== "intent:defensive");
}
