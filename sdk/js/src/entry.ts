/**
 * One logged call (`LogEntry`) and its wire form for `POST /internal/log`.
 *
 * An entry is built on the application's call path from cheap, raw values (a snapshot of
 * the request, the provider's response object, timings). All conversion to JSON happens
 * later in the delivery loop through `encodeEntry`.
 */
import { MAX_BODY_BYTES } from "./config.js";
import type { LogPayload } from "./log-payload.js";
import { asInt, errorInfo, estimateTokens, toJsonable } from "./serialize.js";
import { SDK_NAME } from "./version.js";

/** What an extractor reads from a raw response: the JSON body and the reported usage. */
export interface Extracted {
  body: unknown;
  /** Prompt tokens as reported by the provider; `undefined` when not reported. */
  promptTokens?: number | undefined;
  /** Completion tokens as reported by the provider; `undefined` when not reported. */
  completionTokens?: number | undefined;
  /** Extra `metadata` fields. */
  metadata?: Record<string, unknown>;
}

/** Turns a raw response (or list of stream events) into body + usage; runs in the delivery loop. */
export type Extractor = (raw: unknown) => Extracted;

/** A logged call waiting in the queue. */
export interface LogEntry {
  /** Model name (`"unknown"` when empty). */
  model: unknown;
  /** `"anthropic"`, `"cohere"`, `"custom"`, ... */
  provider: string;
  /** Request payload (a snapshot), converted to JSON later. */
  request: unknown;
  /** Raw response, list of stream events or traced output; `undefined` when the call failed. */
  response?: unknown;
  /** `Date.now()` when the call started (becomes `created_at`). */
  startedAt: number;
  /** Wall time of the call in ms (for streams: until the stream ended). */
  latencyMs: number;
  /** Extra metadata (`stream`, `ttft_ms`, `trace`, ...). */
  metadata?: Record<string, unknown>;
  /** Set when the call failed: the thrown value. */
  error?: unknown;
  failed?: boolean;
  /** Converts `response`; default: plain JSON conversion. */
  extract?: Extractor;
  /** Converts `request` to its wire form; default: plain JSON conversion. */
  requestToJson?: (request: unknown) => unknown;
}

/** The body of `POST /internal/log`: generated from the API's contract (./log-payload.ts). */
export type { LogPayload };

const PREVIEW_CHARS = 64 * 1024;
const encoder = new TextEncoder();

const defaultExtract: Extractor = (raw) => ({ body: toJsonable(raw) });

/** Builds the JSON object for `POST /internal/log` (delivery loop only). @throws only from a broken extractor. */
export function toPayload(entry: LogEntry): LogPayload {
  let request = (entry.requestToJson ?? toJsonable)(entry.request);
  if (request === null || typeof request !== "object" || Array.isArray(request)) request = { input: request };
  const requestBody = request as Record<string, unknown>;

  let responseBody: unknown = null;
  let prompt: number | undefined;
  let completion: number | undefined;
  let extra: Record<string, unknown> | undefined;
  if (entry.response !== undefined && !entry.failed) {
    const out = (entry.extract ?? defaultExtract)(entry.response);
    responseBody = out.body === undefined ? null : out.body;
    prompt = asInt(out.promptTokens);
    completion = asInt(out.completionTokens);
    extra = out.metadata;
  }

  const metadata: Record<string, unknown> = { status: entry.failed ? "error" : "success" };
  if (entry.failed) metadata.error = errorInfo(entry.error);
  if (entry.metadata) Object.assign(metadata, toJsonable(entry.metadata));
  if (extra) Object.assign(metadata, toJsonable(extra));
  if (prompt === undefined && completion === undefined) {
    prompt = estimateTokens(requestBody.messages ?? requestBody);
    completion = responseBody === null ? 0 : estimateTokens(responseBody);
    metadata.token_count_source = "estimated";
  } else if (metadata.token_count_source === undefined) metadata.token_count_source = "reported";
  metadata.sdk = SDK_NAME;

  const model = entry.model === undefined || entry.model === null || entry.model === "" ? "unknown" : String(entry.model);
  const provider = entry.provider || "custom";
  return {
    model: model.trim().slice(0, 256) || "unknown",
    provider: provider.trim().slice(0, 64) || "custom",
    prompt_tokens: prompt ?? 0,
    completion_tokens: completion ?? 0,
    latency_ms: Math.max(0, Math.round(entry.latencyMs)),
    request_body: requestBody,
    response_body: responseBody,
    created_at: new Date(entry.startedAt).toISOString(),
    metadata,
  };
}

/** UTF-8 byte length of `text` (exact only when it could exceed `limit`). */
function byteLength(text: string, limit: number): number {
  return text.length * 3 <= limit ? text.length : encoder.encode(text).length;
}

/**
 * The JSON body of one record, shrunk below `maxBytes` (the API answers 413 above 2 MiB).
 * When too large, `response_body` and then `request_body` become
 * `{_sightline_truncated: true, original_bytes, preview}` and `metadata.truncated` is set.
 *
 * @throws {RangeError} still too large after truncation; {Error} from a broken extractor.
 */
export function encodeEntry(entry: LogEntry, maxBytes: number = MAX_BODY_BYTES): string {
  const payload = toPayload(entry);
  let body = JSON.stringify(payload);
  if (byteLength(body, maxBytes) <= maxBytes) return body;
  payload.metadata.truncated = true;
  for (const field of ["response_body", "request_body"] as const) {
    const text = JSON.stringify(payload[field]) ?? "null";
    const shrunk = { _sightline_truncated: true, original_bytes: encoder.encode(text).length, preview: text.slice(0, PREVIEW_CHARS) };
    if (field === "response_body") payload.response_body = shrunk;
    else payload.request_body = shrunk;
    body = JSON.stringify(payload);
    if (byteLength(body, maxBytes) <= maxBytes) return body;
  }
  throw new RangeError(`sightline: record larger than ${maxBytes} bytes even after truncation`);
}
