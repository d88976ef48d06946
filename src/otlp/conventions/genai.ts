/**
 * OpenTelemetry GenAI semantic conventions (the `gen_ai.*` namespace, "Semantic conventions for
 * generative AI systems", development status), in the generations instrumentations still send:
 * - v1.37 and later: `gen_ai.provider.name`, `gen_ai.input.messages` / `gen_ai.output.messages`
 *   (JSON: `[{role, parts: [{type: "text", content}]}]`, outputs with `finish_reason`) and
 *   `gen_ai.system_instructions` (JSON parts) as span attributes; `gen_ai.conversation.id`.
 * - v1.28 to v1.36: `gen_ai.system`, the content as span events `gen_ai.system.message`,
 *   `gen_ai.user.message`, `gen_ai.assistant.message`, `gen_ai.tool.message` (attribute
 *   `content`, or the event body as JSON in `gen_ai.event.content`) and `gen_ai.choice`
 *   (attributes `message` / `finish_reason`, or the same JSON body).
 * - v1.26 and v1.27: span events `gen_ai.content.prompt` / `gen_ai.content.completion` with the
 *   attributes `gen_ai.prompt` / `gen_ai.completion` (JSON lists of `{role, content}`).
 * - OpenLLMetry (Traceloop) before its move to v1.37: the flattened attributes
 *   `gen_ai.prompt.<N>.role` / `.content` and `gen_ai.completion.<N>.role` / `.content` /
 *   `.finish_reason`, with `llm.request.type` in place of the operation name.
 * Tokens: `gen_ai.usage.input_tokens` / `output_tokens` (v1.27+), or the older
 * `gen_ai.usage.prompt_tokens` / `completion_tokens`.
 * Only text generation is a logged call: `gen_ai.operation.name` `chat`, `text_completion` or
 * `generate_content` (or, without it, OpenLLMetry's `llm.request.type` `chat` / `completion`);
 * embeddings, tool executions and agent spans are not.
 */
import type { OtlpSpan } from "../decode";
import { type ChatMessage, count, indexed, json, messagesFrom, type SpanCall, str, textOf } from "./common";
import { isObject } from "../../util";

/** `gen_ai.operation.name` values that describe one text generation (semconv v1.37 well-known values). */
const GENERATION_OPERATIONS: ReadonlySet<string> = new Set(["chat", "text_completion", "generate_content"]);

/** OpenLLMetry's `llm.request.type` values for the same. */
const LEGACY_REQUEST_TYPES: ReadonlySet<string> = new Set(["chat", "completion"]);

/** Role of each per-message span event of semconv v1.28-v1.36. */
const MESSAGE_EVENTS: Readonly<Record<string, string>> = {
  "gen_ai.system.message": "system",
  "gen_ai.user.message": "user",
  "gen_ai.assistant.message": "assistant",
  "gen_ai.tool.message": "tool",
};

/** The call a GenAI span describes, or null when the span is not a text generation under these conventions. */
export function genAiCall(span: OtlpSpan): SpanCall | null {
  const a = span.attributes;
  const operation = str(a, "gen_ai.operation.name");
  const requestType = str(a, "llm.request.type");
  const isGeneration = operation !== null ? GENERATION_OPERATIONS.has(operation) : requestType !== null && LEGACY_REQUEST_TYPES.has(requestType);
  const model = str(a, "gen_ai.response.model") ?? str(a, "gen_ai.request.model");
  if (!isGeneration || model === null) return null;

  const { input, output, finishReason } = contentOf(span);
  return {
    convention: "gen_ai",
    model,
    provider: str(a, "gen_ai.provider.name") ?? str(a, "gen_ai.system") ?? "unknown",
    inputTokens: count(a, "gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"),
    outputTokens: count(a, "gen_ai.usage.output_tokens", "gen_ai.usage.completion_tokens"),
    input,
    output,
    finishReason: finishReason ?? firstFinishReason(a["gen_ai.response.finish_reasons"]),
    sessionId: str(a, "gen_ai.conversation.id"),
  };
}

/** The messages, from the newest generation of the conventions that the span carries. */
function contentOf(span: OtlpSpan): { input: ChatMessage[]; output: ChatMessage[]; finishReason: string | null } {
  const a = span.attributes;
  // v1.37+: JSON attributes.
  if (a["gen_ai.input.messages"] !== undefined || a["gen_ai.output.messages"] !== undefined) {
    const system = systemInstructions(a["gen_ai.system_instructions"]);
    const outputs = json(a["gen_ai.output.messages"]);
    const first = Array.isArray(outputs) && isObject(outputs[0]) ? outputs[0] : null;
    return {
      input: [...system, ...messagesFrom(json(a["gen_ai.input.messages"]), "user")],
      output: messagesFrom(outputs, "assistant"),
      finishReason: typeof first?.finish_reason === "string" ? first.finish_reason : null,
    };
  }
  // OpenLLMetry's flattened attributes.
  const prompts = indexed(a, "gen_ai.prompt");
  const completions = indexed(a, "gen_ai.completion");
  if (prompts.length > 0 || completions.length > 0) {
    const read = (entry: Record<string, unknown>, role: string): ChatMessage => ({
      role: typeof entry.role === "string" ? entry.role : role,
      content: textOf(entry.content),
    });
    const finish = completions[0]?.finish_reason;
    return {
      input: prompts.map((p) => read(p, "user")),
      output: completions.map((c) => read(c, "assistant")),
      finishReason: typeof finish === "string" ? finish : null,
    };
  }
  return fromEvents(span);
}

/** `gen_ai.system_instructions`: JSON parts (v1.37+) or plain text, as one system message (none when absent or empty). */
function systemInstructions(value: unknown): ChatMessage[] {
  const text = textOf(value ?? null);
  return text === "" ? [] : [{ role: "system", content: text }];
}

/** Messages from the span events of semconv v1.26-v1.36. */
function fromEvents(span: OtlpSpan): { input: ChatMessage[]; output: ChatMessage[]; finishReason: string | null } {
  const input: ChatMessage[] = [];
  const output: ChatMessage[] = [];
  let finishReason: string | null = null;
  for (const event of span.events) {
    const attrs = event.attributes;
    const body = json(attrs["gen_ai.event.content"]);
    const role = MESSAGE_EVENTS[event.name];
    if (role !== undefined) {
      const content = attrs.content ?? (isObject(body) ? body.content : undefined);
      input.push({ role, content: textOf(content) });
    } else if (event.name === "gen_ai.choice") {
      output.push({ role: "assistant", content: textOf(attrs.message ?? (isObject(body) ? body.message : null)) });
      const reason = attrs.finish_reason ?? (isObject(body) ? body.finish_reason : undefined);
      if (typeof reason === "string") finishReason ??= reason;
    } else if (event.name === "gen_ai.content.prompt") {
      input.push(...messagesFrom(json(attrs["gen_ai.prompt"]), "user"));
    } else if (event.name === "gen_ai.content.completion") {
      output.push(...messagesFrom(json(attrs["gen_ai.completion"]), "assistant"));
    }
  }
  return { input, output, finishReason };
}

/** The first of `gen_ai.response.finish_reasons` (a string array). */
function firstFinishReason(value: unknown): string | null {
  return Array.isArray(value) && typeof value[0] === "string" ? value[0] : null;
}
