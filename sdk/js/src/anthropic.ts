/**
 * Direct mode for `@anthropic-ai/sdk` clients: `wrapAnthropic(client)` logs
 * `client.messages.create(...)` (plain and `stream: true`) and `client.messages.stream(...)`
 * (the `MessageStream` helper).
 *
 * Tokens: `prompt_tokens` = `input_tokens` + `cache_creation_input_tokens` +
 * `cache_read_input_tokens` (cached prompt tokens are reported separately);
 * `completion_tokens` = `output_tokens`; for streams from `message_start` and `message_delta`.
 */
import { currentDeliveryLoop, record } from "./client.js";
import { beginCall, patchMethod, WRAPPED, type CallSpec } from "./wrap-method.js";
import { cleanSessionId, takeSessionHeader } from "./session.js";
import type { Extracted } from "./entry.js";
import { now } from "./runtime.js";
import { asInt, getField, toJsonable } from "./serialize.js";

const PROVIDER = "anthropic";
/** Header the SDK's helpers put on the `create` call they make (`messages.stream` sets "stream"). */
const HELPER_HEADER = "x-stainless-helper-method";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === "object" && !Array.isArray(v);

/** `[prompt_tokens, completion_tokens]` from an Anthropic `usage` object. */
export function usageTokens(usage: unknown): [number | undefined, number | undefined] {
  if (!isObj(usage)) return [undefined, undefined];
  const parts = ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
    .map((k) => asInt(usage[k]))
    .filter((n): n is number => n !== undefined);
  return [parts.length ? parts.reduce((a, b) => a + b, 0) : undefined, asInt(usage.output_tokens)];
}

/** Extractor for a `Message` (non-streamed response or the helper's final message). */
export function extractMessage(raw: unknown): Extracted {
  const body = toJsonable(raw);
  const [promptTokens, completionTokens] = usageTokens(isObj(body) ? body.usage : undefined);
  return { body, promptTokens, completionTokens };
}

/**
 * Reassembles a `Message` from raw stream events (`message_start`, `content_block_start`,
 * `content_block_delta` with text/input_json/thinking/signature/citations deltas,
 * `message_delta` with stop reason and cumulative usage, `error`), plus `event_count`.
 */
export function extractEvents(raw: unknown): Extracted {
  const events = Array.isArray(raw) ? raw : [];
  const message: Obj = { id: null, type: "message", role: "assistant", model: null, content: [], stop_reason: null, stop_sequence: null, usage: {} };
  const usage = message.usage as Obj;
  const blocks = new Map<number, Obj>();
  const pieces = new Map<number, Record<string, string[]>>();
  const append = (index: number, field: string, value: unknown) => {
    if (typeof value !== "string") return;
    const byField = pieces.get(index) ?? {};
    (byField[field] ??= []).push(value);
    pieces.set(index, byField);
  };
  for (const event of events) {
    const kind = getField(event, "type");
    if (kind === "message_start") {
      const start = toJsonable(getField(event, "message"));
      if (isObj(start)) {
        for (const key of ["id", "model", "role", "stop_reason", "stop_sequence"]) if (start[key] != null) message[key] = start[key];
        if (isObj(start.usage)) Object.assign(usage, start.usage);
      }
    } else if (kind === "content_block_start") {
      const block = toJsonable(getField(event, "content_block"));
      blocks.set(asInt(getField(event, "index")) ?? 0, isObj(block) ? block : { type: "text", text: "" });
    } else if (kind === "content_block_delta") {
      const index = asInt(getField(event, "index")) ?? 0;
      if (!blocks.has(index)) blocks.set(index, { type: "text", text: "" });
      const block = blocks.get(index) as Obj;
      const delta = getField(event, "delta");
      const type = getField(delta, "type");
      if (type === "text_delta") append(index, "text", getField(delta, "text"));
      else if (type === "input_json_delta") append(index, "partial_json", getField(delta, "partial_json"));
      else if (type === "thinking_delta") append(index, "thinking", getField(delta, "thinking"));
      else if (type === "signature_delta") block.signature = getField(delta, "signature");
      else if (type === "citations_delta") ((block.citations ??= []) as unknown[]).push(toJsonable(getField(delta, "citation")));
    } else if (kind === "message_delta") {
      const delta = getField(event, "delta");
      for (const key of ["stop_reason", "stop_sequence"]) {
        const value = getField(delta, key);
        if (value != null) message[key] = value;
      }
      const u = toJsonable(getField(event, "usage"));
      if (isObj(u)) for (const [k, v] of Object.entries(u)) if (v != null) usage[k] = v;
    } else if (kind === "error") message.error = toJsonable(getField(event, "error"));
  }
  message.content = [...blocks.keys()]
    .sort((a, b) => a - b)
    .map((index) => {
      const block = blocks.get(index) as Obj;
      const parts = pieces.get(index) ?? {};
      for (const field of ["text", "thinking"]) if (parts[field]) block[field] = String(block[field] ?? "") + parts[field].join("");
      if (parts.partial_json) {
        const json = parts.partial_json.join("");
        try {
          block.input = json.trim() ? JSON.parse(json) : {};
        } catch {
          block.input = { _partial_json: json };
        }
      }
      return block;
    });
  message.event_count = events.length;
  const [promptTokens, completionTokens] = usageTokens(Object.keys(usage).length ? usage : undefined);
  return { body: message, promptTokens, completionTokens };
}

const isTokenEvent = (event: unknown) => getField(event, "type") === "content_block_delta";

function fromStreamHelper(args: unknown[]): boolean {
  const headers = getField(args[1], "headers");
  if (!isObj(headers)) return false;
  for (const [key, value] of Object.entries(headers)) if (key.toLowerCase() === HELPER_HEADER && value === "stream") return true;
  return false;
}

/** `create` spec; calls made by the `stream()` helper are logged by the helper wrapper instead. */
const CREATE_SPEC: CallSpec = { provider: PROVIDER, extract: extractMessage, streamExtract: extractEvents, isTokenEvent, skip: fromStreamHelper };

type Emit = (event: string, ...args: unknown[]) => unknown;

/**
 * Observes a `MessageStream` through its `_emit` (so no listener is added: the helper's
 * "unhandled error" behaviour stays as it was) and logs once at `end` with the final
 * message, or the error / abort. Falls back to `on('end')` listeners.
 */
function observeMessageStream(stream: Obj, params: unknown, spec: CallSpec, sessionId: string | undefined): void {
  const call = beginCall(spec, params, true, sessionId ?? spec.sessionId);
  let final: unknown;
  let error: unknown;
  let failed = false;
  let aborted = false;
  let events = 0;
  let ttftMs: number | undefined;
  let logged = false;
  const observe = (event: string, args: unknown[]) => {
    if (event === "streamEvent") {
      events++;
      if (ttftMs === undefined && isTokenEvent(args[0])) ttftMs = now() - call.t0;
    } else if (event === "finalMessage") final = args[0];
    else if (event === "error") {
      failed = true;
      error = args[0];
    } else if (event === "abort") aborted = true;
    else if (event === "end" && !logged) {
      logged = true;
      const message = final ?? (Array.isArray(stream.receivedMessages) ? stream.receivedMessages.at(-1) : undefined);
      const metadata: Record<string, unknown> = { stream: true, stream_helper: true, event_count: events };
      if (ttftMs !== undefined) metadata.ttft_ms = Math.round(ttftMs);
      if (aborted) metadata.stream_completed = false;
      record({
        model: call.model,
        provider: PROVIDER,
        request: call.request,
        response: message,
        startedAt: call.startedAt,
        latencyMs: now() - call.t0,
        metadata: call.sessionId === undefined ? metadata : { ...metadata, session_id: call.sessionId },
        error,
        failed,
        extract: (raw) => {
          const out = extractMessage(raw);
          if (isObj(out.body)) out.body.event_count = events;
          return out;
        },
      });
    }
  };
  const emit = stream._emit;
  if (typeof emit === "function") {
    stream._emit = function observedEmit(this: unknown, event: string, ...args: unknown[]) {
      try {
        observe(event, args);
      } catch {
        /* observation never breaks the stream */
      }
      return (emit as Emit).call(this, event, ...args);
    };
    return;
  }
  const on = stream.on;
  if (typeof on === "function") {
    for (const name of ["streamEvent", "finalMessage", "end"]) (on as Emit).call(stream, name, (...args: unknown[]) => observe(name, args));
  }
}

function wrapStreamHelper(messages: Obj, spec: CallSpec): void {
  const original = messages.stream;
  if (typeof original !== "function" || (original as unknown as Record<symbol, unknown>)[WRAPPED]) return;
  const wrapped = function stream(this: unknown, ...given: unknown[]) {
    const { args, sessionId } = takeSessionHeader(given);
    const result = (original as (...a: unknown[]) => unknown).apply(this, args);
    try {
      if (currentDeliveryLoop() !== undefined && isObj(result)) observeMessageStream(result, args[0], spec, sessionId);
    } catch {
      /* the helper's stream goes back unchanged */
    }
    return result;
  };
  Object.defineProperty(wrapped, WRAPPED, { value: original });
  messages.stream = wrapped;
}

/**
 * Logs every `client.messages.create(...)` and `client.messages.stream(...)` call of an
 * `Anthropic` client (`@anthropic-ai/sdk`). The client's `messages` resource is patched
 * in place and the same client is returned (same type); wrapping twice is harmless.
 *
 * The application sees no change: the same `APIPromise` (`.withResponse()` works), the
 * same `Message`, the SDK's own `Stream` (events one by one, `.controller`, `tee()`), the
 * same `MessageStream`, the same error objects. Each call queues one record with
 * `provider: "anthropic"`, the params as `request_body`, the message (for streams the
 * reassembled message plus `event_count`) as `response_body`, usage, `latency_ms`,
 * `metadata.stream` and `metadata.ttft_ms`; failed calls with `metadata.status = "error"`.
 *
 * Sessions: `options.sessionId` puts every call of this client in one conversation
 * (`metadata.session_id`); a call's own `{ headers: { "X-Sightline-Session-Id": id } }`
 * request option wins and is taken off before the request reaches Anthropic.
 *
 * Not covered: `client.beta.messages`, and clients derived later with `withOptions()`
 * (wrap those too). Never throws; an object without `messages` is returned untouched.
 */
export function wrapAnthropic<C>(client: C, options: { sessionId?: string } = {}): C {
  try {
    const messages = getField(client, "messages");
    if (!isObj(messages)) return client;
    const spec: CallSpec = { ...CREATE_SPEC, sessionId: cleanSessionId(options?.sessionId) };
    patchMethod(messages, "create", spec);
    wrapStreamHelper(messages, spec);
  } catch {
    /* leave the client as it is */
  }
  return client;
}
