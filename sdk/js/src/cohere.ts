/**
 * Direct mode for `cohere-ai` clients: `wrapCohere(client)` logs `client.chat(...)` and
 * `client.chatStream(...)` of `CohereClient` (v1: `message`, `chatHistory`...), of
 * `CohereClientV2` (v2: `messages`), and of `client.v2` on a v1 client.
 *
 * cohere-ai renames wire fields to camelCase (`finishReason`, `billedUnits`); records get
 * the wire form back (snake_case keys, user-defined names such as tool parameters and JSON
 * schemas left alone), so they read like the Python library's and the proxy's records.
 * Tokens prefer `billed_units` and fall back to `tokens` (v1 `meta`, v2 `usage`).
 */
import { cleanSessionId } from "./session.js";
import { patchMethod, type CallSpec } from "./wrap-method.js";
import type { Extracted } from "./entry.js";
import { asInt, getField, snakeKeys, toJsonable } from "./serialize.js";

const PROVIDER = "cohere";

/** Keys whose values hold user-defined names: kept as they are. */
const OPAQUE = new Set(["parameter_definitions", "parameters", "schema", "json_schema", "documents", "arguments", "properties", "metadata"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** JSON wire form (snake_case) of a cohere-ai request or response object. */
export function wireForm(value: unknown): unknown {
  return snakeKeys(toJsonable(value), OPAQUE);
}

/** `[prompt_tokens, completion_tokens]` from a v1 (`meta`) or v2 (`usage`) response in wire form. */
export function usageTokens(body: unknown): [number | undefined, number | undefined] {
  if (!isObj(body)) return [undefined, undefined];
  for (const container of [body.usage, body.meta]) {
    if (!isObj(container)) continue;
    for (const key of ["billed_units", "tokens"]) {
      const units = container[key];
      if (!isObj(units)) continue;
      const prompt = asInt(units.input_tokens);
      const completion = asInt(units.output_tokens);
      if (prompt !== undefined || completion !== undefined) return [prompt, completion];
    }
  }
  return [undefined, undefined];
}

/** Extractor for a non-streamed chat response (v1 or v2). */
export function extractChat(raw: unknown): Extracted {
  const body = wireForm(raw);
  const [promptTokens, completionTokens] = usageTokens(body);
  return { body, promptTokens, completionTokens };
}

function reassembleV1(events: Obj[]): Obj {
  const texts: string[] = [];
  const out: Obj = { text: "", generation_id: null, finish_reason: null };
  const toolCalls: unknown[] = [];
  const citations: unknown[] = [];
  for (const event of events) {
    const kind = event.event_type;
    if (kind === "stream-start") out.generation_id = event.generation_id ?? null;
    else if (kind === "text-generation" && typeof event.text === "string") texts.push(event.text);
    else if (kind === "tool-calls-generation" && Array.isArray(event.tool_calls)) toolCalls.push(...event.tool_calls);
    else if (kind === "citation-generation" && Array.isArray(event.citations)) citations.push(...event.citations);
    else if (kind === "stream-end") {
      out.finish_reason = event.finish_reason ?? null;
      const final = event.response;
      if (isObj(final)) {
        for (const key of ["meta", "generation_id", "response_id", "chat_history"]) if (final[key] != null && !out[key]) out[key] = final[key];
        if (!texts.length && typeof final.text === "string") texts.push(final.text);
      }
    }
  }
  out.text = texts.join("");
  if (toolCalls.length) out.tool_calls = toolCalls;
  if (citations.length) out.citations = citations;
  return out;
}

function reassembleV2(events: Obj[]): Obj {
  const message: Obj = { role: "assistant", content: [] };
  const out: Obj = { id: null, finish_reason: null, message };
  const texts = new Map<number, string[]>();
  const plan: string[] = [];
  const calls = new Map<number, Obj>();
  const args = new Map<number, string[]>();
  for (const event of events) {
    const kind = event.type;
    const index = asInt(event.index) ?? 0;
    const delta = getField(event, "delta");
    const deltaMessage = getField(delta, "message");
    if (kind === "message-start") out.id = event.id ?? null;
    else if (kind === "content-start" || kind === "content-delta") {
      const text = getField(getField(deltaMessage, "content"), "text");
      const bucket = texts.get(index) ?? [];
      if (typeof text === "string") bucket.push(text);
      texts.set(index, bucket);
    } else if (kind === "tool-plan-delta") {
      const piece = getField(deltaMessage, "tool_plan");
      if (typeof piece === "string") plan.push(piece);
    } else if (kind === "tool-call-start") {
      const call = getField(deltaMessage, "tool_calls");
      calls.set(index, isObj(call) ? { ...call } : {});
    } else if (kind === "tool-call-delta") {
      const piece = getField(getField(getField(deltaMessage, "tool_calls"), "function"), "arguments");
      if (typeof piece === "string") args.set(index, [...(args.get(index) ?? []), piece]);
    } else if (kind === "message-end") {
      out.finish_reason = getField(delta, "finish_reason") ?? null;
      const usage = getField(delta, "usage");
      if (usage != null) out.usage = usage;
    }
  }
  message.content = [...texts.keys()].sort((a, b) => a - b).map((i) => ({ type: "text", text: (texts.get(i) ?? []).join("") }));
  if (plan.length) message.tool_plan = plan.join("");
  if (calls.size) {
    message.tool_calls = [...calls.keys()]
      .sort((a, b) => a - b)
      .map((i) => {
        const call = calls.get(i) as Obj;
        const fn = isObj(call.function) ? { ...call.function } : {};
        if (args.has(i)) fn.arguments = String(fn.arguments ?? "") + (args.get(i) ?? []).join("");
        return { ...call, function: fn };
      });
  }
  return out;
}

/**
 * Reassembles a chat response from stream events (v1 `event_type`, v2 `type`) in the shape
 * of the matching non-streamed response, plus `event_count`.
 */
export function extractEvents(raw: unknown): Extracted {
  const events = (Array.isArray(raw) ? raw : []).map((e) => wireForm(e)).filter(isObj);
  const isV1 = events.slice(0, 3).some((e) => e.event_type !== undefined);
  const body = isV1 ? reassembleV1(events) : reassembleV2(events);
  body.event_count = events.length;
  const [promptTokens, completionTokens] = usageTokens(body);
  return { body, promptTokens, completionTokens };
}

const isTokenEvent = (event: unknown) => {
  const kind = getField(event, "eventType") ?? getField(event, "event_type") ?? getField(event, "type");
  return kind === "text-generation" || kind === "content-delta";
};

const CHAT_SPEC: CallSpec = { provider: PROVIDER, extract: extractChat, streamExtract: extractEvents, isTokenEvent, requestToJson: wireForm };
const STREAM_SPEC: CallSpec = { ...CHAT_SPEC, alwaysStream: true };

/**
 * Logs every `client.chat(...)` and `client.chatStream(...)` call of a cohere-ai client:
 * `CohereClient` (v1), `CohereClientV2` (v2) and the `v2` resource of a v1 client. Patches
 * the instance in place and returns it (same type); wrapping twice is harmless.
 *
 * The application gets the SDK's own promise (`.withRawResponse()` works), response
 * object, stream (`for await` events unchanged) and errors. Each call queues one record
 * with `provider: "cohere"` (`model: "unknown"` when v1 is called without one).
 * `options.sessionId` puts every call in one conversation (`metadata.session_id`); a call's
 * own `{ headers: { "X-Sightline-Session-Id": id } }` request option wins and is taken off
 * before the request reaches Cohere. Never throws; an object without `chat` is returned untouched.
 */
export function wrapCohere<C>(client: C, options: { sessionId?: string } = {}): C {
  try {
    const targets: unknown[] = [client];
    try {
      const v2 = getField(client, "v2");
      if (isObj(v2) && v2 !== (client as unknown) && typeof v2.chat === "function") targets.push(v2);
    } catch {
      /* no v2 resource */
    }
    const sessionId = cleanSessionId(options?.sessionId);
    for (const target of targets) {
      patchMethod(target, "chat", { ...CHAT_SPEC, sessionId });
      patchMethod(target, "chatStream", { ...STREAM_SPEC, sessionId });
    }
  } catch {
    /* leave the client as it is */
  }
  return client;
}
