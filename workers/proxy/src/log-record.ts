/**
 * Builds the POST /internal/log record (`LogRequest`, src/ingest/contract.ts) of one proxied call
 * from what the proxy saw: the request body, the upstream's status and headers, the collected
 * response body and the timings. Token counts come from the reported usage or an estimate
 * (tokens.ts). The cost is left unknown for the scorer to price with its cached tokens
 * (src/pricing/fill-costs.ts), except for a refused call: nothing was generated, nothing billed.
 *
 * Headers are never copied into the record: provider keys, the Sightline key and cookies
 * travel only in headers, and fit.ts scrubs any copy of their values that appears in a body.
 */
import type { LogRequest } from "../../../src/ingest/contract";
import { isObject } from "../../../src/util";
import type { Collected } from "./collect";
import type { UpstreamTarget } from "./upstreams";
import type { TapOutcome } from "./tap";
import { estimateUsage, reportedUsage, type TokenUsage } from "./tokens";
import { logError } from "../../../src/logger";

type Json = Record<string, unknown>;
const nonEmpty = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 256) : undefined);

/** Why no upstream response arrived (the client got 502). */
export interface UpstreamFailure {
  type: "upstream_timeout" | "upstream_unreachable";
  message: string;
}

/** Everything known about one call once it has ended. All times are epoch milliseconds. */
export interface CallRecord {
  startedAt: number;
  method: string;
  target: UpstreamTarget;
  /** The JSON request body (or a summary of a non-JSON one). */
  requestBody: Json;
  /** The `X-Sightline-Session-Id` header, when sent: becomes `metadata.session_id`. */
  sessionId?: string | undefined;
  /** The upstream's answer; absent when it never answered. */
  response?: { status: number; headers: Headers; headersAt: number };
  failure?: UpstreamFailure;
  collected?: Collected;
  /** First body byte from the upstream. */
  firstByteAt?: number;
  endedAt: number;
  outcome: TapOutcome;
  streamError?: unknown;
}

/** `error` of an OpenAI-style error body (`{"error": {message, type, code, param}}`). */
function providerError(body: unknown): { type: string; message: string; code?: unknown } | undefined {
  const error = isObject(body) ? body.error : undefined;
  if (isObject(error))
    return { type: String(error.type ?? error.code ?? "error"), message: String(error.message ?? ""), ...(error.code != null ? { code: error.code } : {}) };
  if (typeof error === "string") return { type: "error", message: error };
  return undefined;
}

/** The error of a call, if it failed. Client aborts are normal endings, not errors. */
function callError(call: CallRecord): Json | undefined {
  if (call.failure) return { ...call.failure };
  const status = call.response?.status ?? 0;
  const fromBody = providerError(call.collected?.body);
  if (status >= 400) return fromBody ?? { type: "http_error", message: `upstream answered HTTP ${status}` };
  if (call.outcome === "error") return { type: "stream_error", message: String(call.streamError ?? "upstream stream failed") };
  return fromBody; // an error event inside a 200 stream
}

/** Token counts and where they came from. */
async function tokensOf(call: CallRecord, failed: boolean): Promise<{ usage: TokenUsage; source: string }> {
  const reported = reportedUsage(call.collected?.body);
  if (reported) return { usage: reported, source: "reported" };
  if (failed) return { usage: { prompt_tokens: 0, completion_tokens: 0 }, source: "none" };
  try {
    return { usage: await estimateUsage(call.requestBody, call.collected?.body), source: "estimated" };
  } catch (err) {
    logError("token estimate failed; logged as 0", {}, err);
    return { usage: { prompt_tokens: 0, completion_tokens: 0 }, source: "none" };
  }
}

/** Builds the log record of one ended call. */
export async function buildLogRecord(call: CallRecord): Promise<LogRequest> {
  const body = call.collected?.body;
  const requestModel = nonEmpty(call.requestBody.model);
  const responseModel = isObject(body) ? nonEmpty(body.model) : undefined;
  const model = requestModel ?? responseModel ?? call.target.deployment ?? "unknown";
  const error = callError(call);
  // A refused call (4xx/5xx, no answer) generated nothing: no estimate, no cost. A stream that
  // broke or was aborted did generate its partial text, which is estimated.
  const refused = !!call.failure || (call.response?.status ?? 0) >= 400;
  const { usage, source } = await tokensOf(call, refused);

  const metadata: Json = {
    status: error ? "error" : "success",
    http_status: call.response?.status ?? 502,
    stream: call.collected?.stream ?? false,
    ttft_ms: Math.max(0, (call.firstByteAt ?? call.response?.headersAt ?? call.endedAt) - call.startedAt),
    token_count_source: source,
    route: call.target.route,
    method: call.method,
    endpoint: call.target.url.pathname,
    upstream: call.target.url.origin,
  };
  if (error) metadata.error = error;
  if (responseModel && responseModel !== model) metadata.response_model = responseModel;
  const requestId = call.response?.headers.get("x-request-id");
  if (requestId) metadata.upstream_request_id = requestId.slice(0, 128);
  if (call.outcome === "aborted") metadata.aborted = true;
  if (call.collected?.truncated) metadata.truncated = true;
  const sessionId = nonEmpty(call.sessionId);
  if (sessionId) metadata.session_id = sessionId;

  return {
    model,
    provider: call.target.provider,
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    ...(refused ? { cost_usd: 0 } : {}),
    latency_ms: Math.max(0, call.endedAt - call.startedAt),
    request_body: call.requestBody,
    response_body: body ?? null,
    created_at: new Date(call.startedAt).toISOString(),
    metadata,
  };
}
