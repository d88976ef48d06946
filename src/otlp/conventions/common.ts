/**
 * What every span convention maps a span to (`SpanCall`), and the small readers they share:
 * typed attribute reads, JSON-in-a-string attributes, message text, and the flattened
 * `<prefix>.<N>.<field>` lists that OpenLLMetry and OpenInference write.
 */
import type { Attributes, AttrValue } from "../decode";
import { isObject } from "../../util";

/** One chat message as stored (OpenAI chat shape): role and its text. */
export interface ChatMessage {
  role: string;
  content: string;
}

/** The LLM call one span describes, before it becomes a logged call (../span-call.ts). */
export interface SpanCall {
  /** Which convention read it: `gen_ai` (OpenTelemetry GenAI, OpenLLMetry), `openinference`, `vercel_ai`. */
  convention: "gen_ai" | "openinference" | "vercel_ai";
  model: string;
  provider: string;
  /** Input tokens (prompt), 0 when the span does not say. */
  inputTokens: number;
  /** Output tokens (completion), 0 when the span does not say. */
  outputTokens: number;
  /** The input, system instructions first. */
  input: ChatMessage[];
  /** The model's output messages (usually one, role `assistant`). */
  output: ChatMessage[];
  /** The first output's finish reason, when given. */
  finishReason: string | null;
  /** The conversation the call belongs to (`gen_ai.conversation.id`, OpenInference `session.id`). */
  sessionId: string | null;
}

/** The attribute `key` as non-empty text (numbers as their decimal text), else null. */
export function str(attrs: Attributes, key: string): string | null {
  const v = attrs[key];
  if (typeof v === "string" && v.trim() !== "") return v;
  if (typeof v === "number") return String(v);
  return null;
}

/** The first of `keys` that is a non-negative integer (numbers or decimal text), else 0. */
export function count(attrs: Attributes, ...keys: string[]): number {
  for (const key of keys) {
    const v = attrs[key];
    const n = typeof v === "string" ? Number(v) : v;
    if (typeof n === "number" && Number.isInteger(n) && n >= 0) return Math.min(n, 2_147_483_647);
  }
  return 0;
}

/** An attribute holding JSON text (or already structured, as in an OTLP array value), parsed; null when absent or invalid. */
export function json(value: AttrValue | undefined): unknown {
  if (typeof value !== "string") return value ?? null;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/**
 * Text of a message content that may itself be JSON text (OpenLLMetry writes content parts as a
 * JSON array into a string attribute): parsed only when it is a JSON array or object, so a
 * prompt such as `42` or `"hi"` stays the text it is.
 */
export function textOf(value: unknown): string {
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    const parsed = json(value);
    if (parsed !== null && typeof parsed === "object") return contentText(parsed);
  }
  return contentText(value);
}

/**
 * Text of a message content in any of the common shapes: a string; an array of parts with
 * `text` (OpenAI, Vercel) or `content` (GenAI `TextPart`) or `message_content.text`
 * (OpenInference); or an object `{content}`/`{text}`. Non-text parts are left out.
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => {
        if (typeof part === "string") return part;
        if (!isObject(part)) return "";
        if (part.type !== undefined && part.type !== "text" && part.type !== "input_text" && part.type !== "output_text") return "";
        return typeof part.text === "string" ? part.text : typeof part.content === "string" ? part.content : "";
      })
      .filter((t) => t !== "")
      .join("\n");
  }
  if (isObject(content)) return contentText(content.content ?? content.text ?? null);
  return "";
}

/**
 * A flattened list `<prefix>.<N>.<field>`, e.g. OpenLLMetry's `gen_ai.prompt.0.role` or
 * OpenInference's `llm.input_messages.0.message.content`: one record per index, in index
 * order, mapping each field (the rest of the key, e.g. `role` or `message.content`) to its value.
 */
export function indexed(attrs: Attributes, prefix: string): Record<string, AttrValue>[] {
  const byIndex = new Map<number, Record<string, AttrValue>>();
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(head)) continue;
    const match = /^(\d+)\.(.+)$/.exec(key.slice(head.length));
    if (!match) continue;
    const index = Number(match[1]);
    const entry = byIndex.get(index) ?? {};
    entry[match[2]!] = value;
    byIndex.set(index, entry);
  }
  return [...byIndex.entries()].sort(([a], [b]) => a - b).map(([, entry]) => entry);
}

/**
 * Messages from a list of `{role, content}`-like objects (GenAI `parts`, OpenAI `content`,
 * Vercel content parts): messages without text are kept only when they name a role.
 */
export function messagesFrom(list: unknown, defaultRole: string): ChatMessage[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((m) => {
    const inner = isObject(m.message) ? m.message : m;
    const role = typeof inner.role === "string" && inner.role !== "" ? inner.role : defaultRole;
    return { role, content: contentText(inner.parts ?? inner.content ?? inner.text ?? null) };
  });
}
