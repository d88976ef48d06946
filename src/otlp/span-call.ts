/**
 * From a span to a logged call: picks the convention the span follows (OpenInference, the Vercel
 * AI SDK, or the OpenTelemetry GenAI conventions with OpenLLMetry's older attributes; see
 * ./conventions/) and builds the POST /internal/log body for it (src/ingest/contract.ts), so
 * an exported span is stored, priced and scored like any other call. The bodies take the OpenAI
 * chat shape the scorers read: `request_body = {model, messages}`, `response_body = {model,
 * choices: [{index, message, finish_reason}], usage: {prompt_tokens, completion_tokens}}`.
 * Docs: docs/otlp.md.
 */
import type { LogRequest } from "../ingest/contract";
import type { OtlpSpan } from "./decode";
import type { SpanCall } from "./conventions/common";
import { genAiCall } from "./conventions/genai";
import { openInferenceCall } from "./conventions/openinference";
import { isVercelAiSpan, vercelAiCall } from "./conventions/vercel-ai";

/** `Status.StatusCode.STATUS_CODE_ERROR`. */
const STATUS_ERROR = 2;

/**
 * The LLM call a span describes, or null for a span that is not one (HTTP, database, tool,
 * agent, embedding spans, and the AI SDK's outer spans), which is acknowledged and dropped.
 */
export function spanCall(span: OtlpSpan): SpanCall | null {
  const openInference = openInferenceCall(span);
  if (openInference) return openInference;
  // AI SDK spans also carry gen_ai.* attributes; their ai.* ones hold the messages.
  if (isVercelAiSpan(span)) return vercelAiCall(span);
  return genAiCall(span);
}

/**
 * The POST /internal/log body of `call`, read from `span`: latency from the span's start and end
 * (milliseconds), `created_at` its start, status `error` when the span's status is ERROR (with
 * its message and the first `exception` event's type), and in `metadata`: `session_id` (the
 * conversation), `otel` (`trace_id`, `span_id`, `parent_span_id`, span name, convention,
 * `service.name`, instrumentation scope) and `token_count_source: "reported"` when tokens were given.
 */
export function logRequestOf(span: OtlpSpan, call: SpanCall): LogRequest {
  const failed = span.status.code === STATUS_ERROR;
  const exception = span.events.find((e) => e.name === "exception")?.attributes;
  const serviceName = span.resource["service.name"];
  const metadata: Record<string, unknown> = {
    status: failed ? "error" : "success",
    otel: {
      trace_id: span.traceId,
      span_id: span.spanId,
      parent_span_id: span.parentSpanId,
      span_name: span.name,
      convention: call.convention,
      ...(typeof serviceName === "string" ? { service_name: serviceName } : {}),
      ...(span.scope.name ? { scope: span.scope.version ? `${span.scope.name}@${span.scope.version}` : span.scope.name } : {}),
    },
  };
  if (failed) {
    const type = typeof exception?.["exception.type"] === "string" ? exception["exception.type"] : "error";
    const message = span.status.message || (typeof exception?.["exception.message"] === "string" ? exception["exception.message"] : "");
    metadata.error = { type, message };
  }
  if (call.sessionId !== null) metadata.session_id = call.sessionId;
  if (call.inputTokens > 0 || call.outputTokens > 0) metadata.token_count_source = "reported";

  const usage = { prompt_tokens: call.inputTokens, completion_tokens: call.outputTokens, total_tokens: call.inputTokens + call.outputTokens };
  const responseBody =
    call.output.length === 0 && failed
      ? null
      : {
          model: call.model,
          choices: call.output.map((message, index) => ({ index, message, finish_reason: index === 0 ? call.finishReason : null })),
          usage,
        };
  return {
    model: call.model,
    provider: call.provider,
    prompt_tokens: call.inputTokens,
    completion_tokens: call.outputTokens,
    latency_ms: Number((span.endTimeUnixNano - span.startTimeUnixNano) / 1000n) / 1000,
    created_at: new Date(Number(span.startTimeUnixNano / 1_000_000n)).toISOString(),
    request_body: { model: call.model, messages: call.input },
    response_body: responseBody,
    metadata,
  };
}
