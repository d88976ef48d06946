/**
 * Rebuilds one response body from a stream's events, in the shape the same call would have
 * had without `stream: true`, so scorers read streamed and plain calls alike. Pure.
 *
 * Formats (OpenAI API reference, "Streaming"):
 * - Chat Completions: `chat.completion.chunk` objects whose `choices[i].delta` carries `role`,
 *   `content`, `refusal` and `tool_calls[j]` fragments (`id`, `type`, `function.name` once,
 *   `function.arguments` in pieces, matched by `index`); `finish_reason` closes a choice; with
 *   `stream_options.include_usage` a last chunk has `choices: []` and `usage`.
 *   Output: a `chat.completion` with `choices[].message.{role, content, tool_calls}`.
 * - Completions (legacy): `text_completion` chunks with `choices[i].text`. Output: the same
 *   object with concatenated `text`.
 * - Responses: typed events (`response.output_text.delta`, ...); `response.completed`
 *   (or `.incomplete` / `.failed`) carries the whole response, which is kept as the body.
 * - `{"error": {...}}` events are kept as `error`.
 *
 * Text is kept up to `maxChars` in total; past that it is dropped and `truncated` is set,
 * so a long stream costs bounded memory.
 */
import { isObject } from "../../../src/util";
import type { SseEvent } from "./sse";

/** Default cap on reassembled text: 1,000,000 characters. */
export const DEFAULT_MAX_CHARS = 1_000_000;

type Json = Record<string, unknown>;

/** An event that may carry a field kept after the text budget is spent (a non-null value). */
const KEPT_PAST_BUDGET = /"(?:usage|finish_reason|error)"\s*:\s*(?!null)/;

interface ToolCallParts {
  id?: string;
  type?: string;
  name: string;
  arguments: string;
}

interface ChoiceParts {
  index: number;
  role?: string;
  content: string;
  hasContent: boolean;
  refusal?: string;
  reasoning?: string;
  text: string;
  tools: Map<number, ToolCallParts>;
  finish_reason: unknown;
}

/** What a finished stream yields. */
export interface Reassembled {
  /** The rebuilt body plus `event_count`. */
  body: Json;
  /** True when text beyond `maxChars` was dropped. */
  truncated: boolean;
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** Accumulates events; `result()` builds the body. */
export class StreamReassembler {
  #events = 0;
  #head: Json = {};
  #choices = new Map<number, ChoiceParts>();
  #usage: unknown;
  #error: unknown;
  #response: Json | undefined;
  #responseText = "";
  #kind: "chat" | "text" | "responses" | undefined;
  #chars = 0;
  #truncated = false;
  #unparsed = 0;

  constructor(private readonly maxChars = DEFAULT_MAX_CHARS) {}

  /** Adds one event (the `[DONE]` sentinel included: it counts as an event). */
  push(event: SseEvent): void {
    this.#events++;
    if (event.data === "[DONE]") return;
    // Past the text budget a chat or text chunk can only add fields kept outside the budget
    // (usage, finish_reason, error); one without them is not parsed at all, so the rest of a
    // long stream costs a regex scan per event instead of a JSON.parse (issue 12, point 7).
    if (this.#chars >= this.maxChars && this.#kind !== "responses" && !KEPT_PAST_BUDGET.test(event.data)) {
      this.#truncated = true;
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(event.data);
    } catch {
      this.#unparsed++;
      return;
    }
    if (!isObject(data)) return;
    if (isObject(data.error)) this.#error = data.error;
    const type = str(data.type) ?? event.event;
    if (type?.startsWith("response.")) {
      this.#responsesEvent(type, data);
      return;
    }
    if (Array.isArray(data.choices)) this.#chunk(data);
  }

  /** Appends text within the character budget. */
  #take(current: string, piece: unknown): string {
    if (typeof piece !== "string" || piece.length === 0) return current;
    const room = this.maxChars - this.#chars;
    if (room <= 0) {
      this.#truncated = true;
      return current;
    }
    const kept = piece.length > room ? piece.slice(0, room) : piece;
    if (kept.length < piece.length) this.#truncated = true;
    this.#chars += kept.length;
    return current + kept;
  }

  #chunk(data: Json): void {
    for (const key of ["id", "object", "created", "model", "system_fingerprint", "service_tier", "provider"])
      if (data[key] !== undefined && data[key] !== null) this.#head[key] = data[key];
    if (data.usage !== undefined && data.usage !== null) this.#usage = data.usage;
    for (const raw of data.choices as unknown[]) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === "number" ? raw.index : 0;
      let choice = this.#choices.get(index);
      if (!choice) {
        choice = { index, content: "", hasContent: false, text: "", tools: new Map(), finish_reason: null };
        this.#choices.set(index, choice);
      }
      if (raw.finish_reason !== undefined && raw.finish_reason !== null) choice.finish_reason = raw.finish_reason;
      if (typeof raw.text === "string") {
        this.#kind ??= "text";
        choice.text = this.#take(choice.text, raw.text);
      }
      if (isObject(raw.delta)) this.#delta(choice, raw.delta);
    }
  }

  #delta(choice: ChoiceParts, delta: Json): void {
    this.#kind = "chat";
    if (typeof delta.role === "string") choice.role = delta.role;
    if (typeof delta.content === "string") {
      choice.hasContent = true;
      choice.content = this.#take(choice.content, delta.content);
    }
    if (typeof delta.refusal === "string") choice.refusal = this.#take(choice.refusal ?? "", delta.refusal);
    // DeepSeek streams `reasoning_content`, OpenRouter `reasoning`.
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === "string") choice.reasoning = this.#take(choice.reasoning ?? "", reasoning);
    if (!Array.isArray(delta.tool_calls)) return;
    for (const raw of delta.tool_calls) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === "number" ? raw.index : choice.tools.size;
      const call = choice.tools.get(index) ?? { name: "", arguments: "" };
      if (typeof raw.id === "string") call.id = raw.id;
      if (typeof raw.type === "string") call.type = raw.type;
      const fn = isObject(raw.function) ? raw.function : {};
      if (typeof fn.name === "string") call.name += fn.name;
      call.arguments = this.#take(call.arguments, fn.arguments);
      choice.tools.set(index, call);
    }
  }

  #responsesEvent(type: string, data: Json): void {
    this.#kind = "responses";
    if (isObject(data.response)) this.#response = data.response;
    if (type === "response.output_text.delta") this.#responseText = this.#take(this.#responseText, data.delta);
  }

  /** The rebuilt body (callable once the stream has ended, or early on abort). */
  result(): Reassembled {
    const base: Json = this.#kind === "responses" ? this.#responsesBody() : this.#choicesBody();
    if (this.#error !== undefined) base.error = this.#error;
    if (this.#unparsed > 0) base.unparsed_events = this.#unparsed;
    base.event_count = this.#events;
    return { body: base, truncated: this.#truncated };
  }

  #responsesBody(): Json {
    const response: Json = { ...(this.#response ?? { object: "response" }) };
    // Without a final response.completed (aborted stream), keep the text that did arrive.
    if (this.#responseText && !(Array.isArray(response.output) && response.output.length > 0)) response.output_text = this.#responseText;
    return response;
  }

  #choicesBody(): Json {
    const chat = this.#kind !== "text";
    const choices = [...this.#choices.values()]
      .sort((a, b) => a.index - b.index)
      .map((c) => (chat ? chatChoice(c) : { index: c.index, text: c.text, finish_reason: c.finish_reason }));
    const object = chat ? "chat.completion" : (this.#head.object ?? "text_completion");
    return { ...this.#head, object, choices, usage: this.#usage ?? null };
  }
}

function chatChoice(c: ChoiceParts): Json {
  const message: Json = { role: c.role ?? "assistant", content: c.hasContent ? c.content : null };
  if (c.refusal !== undefined) message.refusal = c.refusal;
  if (c.reasoning !== undefined) message.reasoning_content = c.reasoning;
  if (c.tools.size > 0) {
    message.tool_calls = [...c.tools.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, t]) => ({ id: t.id ?? null, type: t.type ?? "function", function: { name: t.name, arguments: t.arguments } }));
  }
  return { index: c.index, message, finish_reason: c.finish_reason };
}
