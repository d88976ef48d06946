/**
 * The text a guardrail sees of one logged call, from Sightline's own wire-format parser
 * (src/scoring/text.ts: OpenAI, Anthropic, Cohere shapes); which view each scorer's peers get
 * is `viewFor`.
 */
import { extractCall } from "../../../src/scoring/text";
import type { ScorerName } from "../../../src/enums";
import type { CallViews } from "./types";

/** Prompt, completion and documents of a call (each joined with blank lines). */
export function callViews(requestBody: unknown, responseBody: unknown): CallViews {
  const x = extractCall(requestBody, responseBody);
  return { prompt: x.user.join("\n\n"), completion: x.completion.join("\n\n"), documents: x.documents.join("\n\n") };
}

/**
 * The text a peer guard is run on for `scorer`, as the guardrail would sit in a gateway:
 * - content_safety: the completion when there is one (an output guardrail: the label asks
 *   whether harm was delivered, so a refused harmful prompt is safe), else the prompt;
 * - jailbreak_detection: the prompt (an input guardrail);
 * - pii_detection: prompt, documents and completion (input and output guardrails);
 * - vector_weakness: the retrieved documents (a guardrail run on retrieved content);
 * - anything else: the prompt.
 */
export function viewFor(scorer: ScorerName, v: CallViews): string {
  switch (scorer) {
    case "content_safety":
      return v.completion || v.prompt;
    case "pii_detection":
      return [v.prompt, v.documents, v.completion].filter(Boolean).join("\n\n");
    case "vector_weakness":
      return v.documents;
    default:
      return v.prompt;
  }
}
