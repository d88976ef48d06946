/**
 * OpenInference semantic conventions (Arize; openinference-semantic-conventions 0.1.x, as
 * written by the `@arizeai/openinference-instrumentation-*` packages): a span whose
 * `openinference.span.kind` is `LLM` carries `llm.model_name`, `llm.provider` (or the older
 * `llm.system`), `llm.token_count.prompt` / `llm.token_count.completion`, the messages flattened
 * as `llm.input_messages.<N>.message.role` / `.message.content` (or multimodal
 * `.message.contents.<M>.message_content.text`) and `llm.output_messages.<N>.…`, and the
 * conversation as `session.id`.
 */
import type { Attributes, OtlpSpan } from "../decode";
import { type ChatMessage, count, indexed, type SpanCall, str } from "./common";

/** The call an OpenInference LLM span describes, or null for any other span. */
export function openInferenceCall(span: OtlpSpan): SpanCall | null {
  const a = span.attributes;
  if (str(a, "openinference.span.kind")?.toUpperCase() !== "LLM") return null;
  const output = messages(a, "llm.output_messages", "assistant");
  return {
    convention: "openinference",
    model: str(a, "llm.model_name") ?? "unknown",
    provider: str(a, "llm.provider") ?? str(a, "llm.system") ?? "unknown",
    inputTokens: count(a, "llm.token_count.prompt"),
    outputTokens: count(a, "llm.token_count.completion"),
    input: messages(a, "llm.input_messages", "user"),
    output,
    finishReason: null,
    sessionId: str(a, "session.id"),
  };
}

/** The flattened messages under `prefix`; a message's text is its `content` or its text `contents` joined. */
function messages(a: Attributes, prefix: string, defaultRole: string): ChatMessage[] {
  return indexed(a, prefix).map((m) => {
    const role = typeof m["message.role"] === "string" ? m["message.role"] : defaultRole;
    if (typeof m["message.content"] === "string") return { role, content: m["message.content"] };
    const parts = Object.entries(m)
      .map(([key, value]) => ({ match: /^message\.contents\.(\d+)\.message_content\.text$/.exec(key), value }))
      .filter((p): p is { match: RegExpExecArray; value: string } => p.match !== null && typeof p.value === "string")
      .sort((x, y) => Number(x.match[1]) - Number(y.match[1]));
    return { role, content: parts.map((p) => p.value).join("\n") };
  });
}
