/**
 * The Vercel AI SDK's telemetry (`experimental_telemetry`, AI SDK 3.x to 5.x, "Telemetry" in its
 * documentation): the provider call spans `ai.generateText.doGenerate`, `ai.streamText.doStream`,
 * `ai.generateObject.doGenerate` and `ai.streamObject.doStream` (named in `ai.operationId`) carry
 * `ai.model.id`, `ai.model.provider` (e.g. `openai.chat`), `ai.prompt.messages` (JSON, the
 * provider's message list), `ai.response.text` (or `ai.response.object`), `ai.response.model`,
 * `ai.response.finishReason` and `ai.usage.promptTokens` / `completionTokens` (AI SDK 5:
 * `inputTokens` / `outputTokens`). The enclosing `ai.generateText` etc. spans repeat the same call
 * and are not logged, so each call is stored once.
 */
import type { OtlpSpan } from "../decode";
import { type ChatMessage, count, json, messagesFrom, type SpanCall, str } from "./common";
import { isObject } from "../../util";

/** `ai.operationId` values of the spans around one provider call. */
const PROVIDER_CALLS: ReadonlySet<string> = new Set([
  "ai.generateText.doGenerate",
  "ai.streamText.doStream",
  "ai.generateObject.doGenerate",
  "ai.streamObject.doStream",
]);

/** True when the span comes from the AI SDK (any `ai.*` span with a model). */
export function isVercelAiSpan(span: OtlpSpan): boolean {
  return str(span.attributes, "ai.model.id") !== null;
}

/** The call an AI SDK provider-call span describes, or null for any other span. */
export function vercelAiCall(span: OtlpSpan): SpanCall | null {
  const a = span.attributes;
  const operation = str(a, "ai.operationId") ?? span.name;
  const modelId = str(a, "ai.model.id");
  if (!PROVIDER_CALLS.has(operation) || modelId === null) return null;
  const text = str(a, "ai.response.text") ?? str(a, "ai.response.object");
  const output: ChatMessage[] = text === null ? [] : [{ role: "assistant", content: text }];
  return {
    convention: "vercel_ai",
    model: str(a, "ai.response.model") ?? modelId,
    // `openai.chat` → `openai`: the provider, without the API it used.
    provider: (str(a, "ai.model.provider") ?? "unknown").split(".")[0]!,
    inputTokens: count(a, "ai.usage.promptTokens", "ai.usage.inputTokens"),
    outputTokens: count(a, "ai.usage.completionTokens", "ai.usage.outputTokens"),
    input: inputMessages(a["ai.prompt.messages"], a["ai.prompt"]),
    output,
    finishReason: str(a, "ai.response.finishReason"),
    sessionId: null,
  };
}

/** `ai.prompt.messages`, or else `ai.prompt` (`{system, prompt, messages}` JSON). */
function inputMessages(messages: unknown, prompt: unknown): ChatMessage[] {
  const list = json(messages as never);
  if (Array.isArray(list)) return messagesFrom(list, "user");
  const p = json(prompt as never);
  if (!isObject(p)) return [];
  const system: ChatMessage[] = typeof p.system === "string" ? [{ role: "system", content: p.system }] : [];
  if (Array.isArray(p.messages)) return [...system, ...messagesFrom(p.messages, "user")];
  return typeof p.prompt === "string" ? [...system, { role: "user", content: p.prompt }] : system;
}
