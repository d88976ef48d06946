/**
 * Span → logged call, one convention at a time (docs/otlp.md): the OpenTelemetry GenAI
 * conventions (v1.37 attributes, v1.28-v1.36 span events, v1.26-v1.27 content events),
 * OpenLLMetry's flattened attributes, OpenInference and the Vercel AI SDK; spans that describe no
 * LLM call map to nothing. Attribute names and shapes as each convention's documentation gives them.
 */
import { describe, expect, it } from "vitest";
import type { Attributes, OtlpEvent, OtlpSpan } from "../../../src/otlp/decode";
import type { SpanCall } from "../../../src/otlp/conventions/common";
import { logRequestOf, spanCall } from "../../../src/otlp/span-call";

const START = 1_764_000_000_000_000_000n;

function span(attributes: Attributes, events: OtlpEvent[] = [], over: Partial<OtlpSpan> = {}): OtlpSpan {
  return {
    traceId: "0af7651916cd43dd8448eb211c80319c",
    spanId: "b7ad6b7169203331",
    parentSpanId: null,
    name: "chat",
    kind: 3,
    startTimeUnixNano: START,
    endTimeUnixNano: START + 1_250_000_000n,
    attributes,
    events,
    status: { code: 0, message: "" },
    resource: { "service.name": "shop" },
    scope: { name: "scope", version: "" },
    ...over,
  };
}

const event = (name: string, attributes: Attributes): OtlpEvent => ({ name, timeUnixNano: START, attributes });

/** `s` maps to a call matching `fields` whose input is `system` then `user` and whose output is the assistant's `answer`. */
function expectChat(s: OtlpSpan, fields: Partial<SpanCall>, [system, user]: [string, string], answer: string): SpanCall {
  const call = spanCall(s)!;
  expect(call).toMatchObject(fields);
  expect(call.input).toEqual([
    { role: "system", content: system },
    { role: "user", content: user },
  ]);
  expect(call.output).toEqual([{ role: "assistant", content: answer }]);
  return call;
}

/** A v1.37 chat with gpt-4o at OpenAI; tests add content, usage or events. */
const GPT4O_CHAT: Attributes = { "gen_ai.operation.name": "chat", "gen_ai.provider.name": "openai", "gen_ai.request.model": "gpt-4o" };
/** The same chat in the older spelling (`gen_ai.system`, before v1.37). */
const GPT4O_CHAT_OLD: Attributes = { "gen_ai.operation.name": "chat", "gen_ai.system": "openai", "gen_ai.request.model": "gpt-4o" };

describe("OpenTelemetry GenAI conventions", () => {
  it("Should read v1.37 attributes: provider, models, tokens, system instructions, input and output messages, conversation", () => {
    const s = span({
      ...GPT4O_CHAT,
      "gen_ai.response.model": "gpt-4o-2024-08-06",
      "gen_ai.usage.input_tokens": 20,
      "gen_ai.usage.output_tokens": 4,
      "gen_ai.conversation.id": "c-42",
      "gen_ai.system_instructions": JSON.stringify([{ type: "text", content: "Be brief." }]),
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "Hi" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Hello" }], finish_reason: "stop" }]),
    });
    const call = expectChat(
      s,
      { convention: "gen_ai", model: "gpt-4o-2024-08-06", provider: "openai", inputTokens: 20, outputTokens: 4, sessionId: "c-42" },
      ["Be brief.", "Hi"],
      "Hello",
    );
    expect(call.finishReason).toBe("stop");

    const record = logRequestOf(s, call);
    expect(record).toMatchObject({ latency_ms: 1250, prompt_tokens: 20, completion_tokens: 4, created_at: "2025-11-24T16:00:00.000Z" });
    expect(record.metadata).toMatchObject({ session_id: "c-42", status: "success", otel: { trace_id: s.traceId, span_id: s.spanId, service_name: "shop" } });
    expect(record.response_body).toMatchObject({ choices: [{ index: 0, message: { role: "assistant", content: "Hello" }, finish_reason: "stop" }] });
  });

  it("Should read the older gen_ai.system, prompt_tokens/completion_tokens and the per-message span events", () => {
    const s = span(
      {
        "gen_ai.operation.name": "text_completion",
        "gen_ai.system": "anthropic",
        "gen_ai.request.model": "claude-3-5-haiku",
        "gen_ai.usage.prompt_tokens": 9,
        "gen_ai.usage.completion_tokens": 3,
      },
      [
        event("gen_ai.system.message", { "gen_ai.system": "anthropic", content: "You are terse." }),
        event("gen_ai.user.message", { "gen_ai.event.content": JSON.stringify({ content: "Capital of Peru?" }) }),
        event("gen_ai.choice", { "gen_ai.event.content": JSON.stringify({ index: 0, finish_reason: "end_turn", message: { content: "Lima" } }) }),
      ],
    );
    expectChat(
      s,
      { model: "claude-3-5-haiku", provider: "anthropic", inputTokens: 9, outputTokens: 3, finishReason: "end_turn" },
      ["You are terse.", "Capital of Peru?"],
      "Lima",
    );
  });

  it("Should keep plain-text content that happens to be JSON text, and plain-text system instructions", () => {
    const s = span({
      ...GPT4O_CHAT,
      "gen_ai.system_instructions": "Answer with a number.",
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "6 times 7?" }] }]),
    });
    expect(spanCall(s)!.input).toEqual([
      { role: "system", content: "Answer with a number." },
      { role: "user", content: "6 times 7?" },
    ]);
    const flattened = span({
      "llm.request.type": "chat",
      "gen_ai.system": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.prompt.0.role": "user",
      "gen_ai.prompt.0.content": "42",
      "gen_ai.prompt.1.role": "user",
      "gen_ai.prompt.1.content": JSON.stringify([{ type: "text", text: "and 43" }]),
      "gen_ai.completion.0.content": '"quoted"',
    });
    const call = spanCall(flattened)!;
    expect(call.input.map((m) => m.content)).toEqual(["42", "and 43"]);
    expect(call.output).toEqual([{ role: "assistant", content: '"quoted"' }]);
    const choice = span(GPT4O_CHAT_OLD, [event("gen_ai.choice", { message: "Lima", finish_reason: "stop" })]);
    expect(spanCall(choice)).toMatchObject({ output: [{ role: "assistant", content: "Lima" }], finishReason: "stop" });
  });

  it("Should read the v1.27 gen_ai.content.prompt / gen_ai.content.completion events", () => {
    const s = span({ ...GPT4O_CHAT_OLD, "gen_ai.request.model": "gpt-4" }, [
      event("gen_ai.content.prompt", { "gen_ai.prompt": JSON.stringify([{ role: "user", content: "2+2?" }]) }),
      event("gen_ai.content.completion", { "gen_ai.completion": JSON.stringify([{ role: "assistant", content: "4" }]) }),
    ]);
    const call = spanCall(s)!;
    expect(call.input).toEqual([{ role: "user", content: "2+2?" }]);
    expect(call.output).toEqual([{ role: "assistant", content: "4" }]);
  });

  it("Should read OpenLLMetry's flattened gen_ai.prompt.N / gen_ai.completion.N attributes with llm.request.type", () => {
    const s = span({
      "llm.request.type": "chat",
      "gen_ai.system": "OpenAI",
      "gen_ai.request.model": "gpt-3.5-turbo",
      "gen_ai.usage.prompt_tokens": 15,
      "gen_ai.usage.completion_tokens": 2,
      "gen_ai.prompt.0.role": "system",
      "gen_ai.prompt.0.content": "Answer in one word.",
      "gen_ai.prompt.1.role": "user",
      "gen_ai.prompt.1.content": "Sky colour?",
      "gen_ai.completion.0.role": "assistant",
      "gen_ai.completion.0.content": "Blue",
      "gen_ai.completion.0.finish_reason": "stop",
    });
    expectChat(
      s,
      { convention: "gen_ai", provider: "OpenAI", inputTokens: 15, outputTokens: 2, finishReason: "stop" },
      ["Answer in one word.", "Sky colour?"],
      "Blue",
    );
  });

  it("Should map a failed span to status error with the status message and exception type", () => {
    const s = span(GPT4O_CHAT, [event("exception", { "exception.type": "RateLimitError", "exception.message": "429" })], {
      status: { code: 2, message: "rate limited" },
    });
    const record = logRequestOf(s, spanCall(s)!);
    expect(record.metadata).toMatchObject({ status: "error", error: { type: "RateLimitError", message: "rate limited" } });
    expect(record.response_body).toBeNull();
  });

  it("Should drop embeddings, tool and agent spans and spans without a model", () => {
    expect(spanCall(span({ "gen_ai.operation.name": "embeddings", "gen_ai.request.model": "text-embedding-3-small" }))).toBeNull();
    expect(spanCall(span({ "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search" }))).toBeNull();
    expect(spanCall(span({ "gen_ai.operation.name": "chat" }))).toBeNull();
    expect(spanCall(span({ "http.request.method": "POST", "url.full": "https://api.openai.com/v1/chat/completions" }))).toBeNull();
  });
});

describe("OpenInference", () => {
  it("Should read an LLM span's llm.* attributes, flattened messages and session.id", () => {
    const s = span({
      "openinference.span.kind": "LLM",
      "llm.model_name": "gpt-4o-mini",
      "llm.provider": "openai",
      "llm.token_count.prompt": 31,
      "llm.token_count.completion": 8,
      "llm.input_messages.0.message.role": "system",
      "llm.input_messages.0.message.content": "Be nice.",
      "llm.input_messages.1.message.role": "user",
      "llm.input_messages.1.message.contents.0.message_content.type": "text",
      "llm.input_messages.1.message.contents.0.message_content.text": "Tell me",
      "llm.input_messages.1.message.contents.1.message_content.text": "a joke",
      "llm.output_messages.0.message.role": "assistant",
      "llm.output_messages.0.message.content": "Why did...",
      "session.id": "sess-7",
    });
    expectChat(
      s,
      {
        convention: "openinference",
        model: "gpt-4o-mini",
        provider: "openai",
        inputTokens: 31,
        outputTokens: 8,
        sessionId: "sess-7",
      },
      ["Be nice.", "Tell me\na joke"],
      "Why did...",
    );
  });

  it("Should drop OpenInference spans of other kinds", () => {
    expect(spanCall(span({ "openinference.span.kind": "CHAIN", "llm.model_name": "gpt-4o" }))).toBeNull();
  });
});

describe("Vercel AI SDK", () => {
  const base = {
    "ai.model.id": "gpt-4o-mini",
    "ai.model.provider": "openai.chat",
    "gen_ai.system": "openai.chat",
    "gen_ai.request.model": "gpt-4o-mini",
  };

  it("Should read a doGenerate span: ai.prompt.messages, ai.response.text, v4 usage names", () => {
    const s = span(
      {
        ...base,
        "ai.operationId": "ai.generateText.doGenerate",
        "ai.prompt.messages": JSON.stringify([
          { role: "system", content: "Short answers." },
          { role: "user", content: [{ type: "text", text: "Largest ocean?" }] },
        ]),
        "ai.response.text": "The Pacific.",
        "ai.response.finishReason": "stop",
        "ai.usage.promptTokens": 14,
        "ai.usage.completionTokens": 4,
      },
      [],
      { name: "ai.generateText.doGenerate" },
    );
    expectChat(
      s,
      { convention: "vercel_ai", model: "gpt-4o-mini", provider: "openai", inputTokens: 14, outputTokens: 4, finishReason: "stop" },
      ["Short answers.", "Largest ocean?"],
      "The Pacific.",
    );
  });

  it("Should read AI SDK 5 usage names (inputTokens/outputTokens) on a doStream span", () => {
    const s = span({ ...base, "ai.operationId": "ai.streamText.doStream", "ai.usage.inputTokens": 5, "ai.usage.outputTokens": 6, "ai.response.text": "ok" });
    expect(spanCall(s)).toMatchObject({ inputTokens: 5, outputTokens: 6 });
  });

  it("Should not log the enclosing ai.generateText span (its doGenerate child is the call)", () => {
    const s = span({ ...base, "ai.operationId": "ai.generateText", "ai.prompt": JSON.stringify({ prompt: "x" }), "ai.response.text": "y" });
    expect(spanCall(s)).toBeNull();
  });
});
