/**
 * OTLP export bodies for the POST /v1/traces tests: OTLP/JSON as an exporter writes it (hex ids,
 * decimal nanoseconds, `intValue` as text), and the same request as binary protobuf through the
 * generated encoder.
 */
import protobuf from "protobufjs/minimal.js";
import { opentelemetry } from "../../src/otlp/generated/trace.js";

type JsonAnyValue = { stringValue: string } | { intValue: string } | { doubleValue: number } | { boolValue: boolean };

/** One attribute in OTLP/JSON; integers as `intValue` text, as the OpenTelemetry JS exporter writes them. */
export function attr(key: string, value: string | number | boolean): { key: string; value: JsonAnyValue } {
  if (typeof value === "string") return { key, value: { stringValue: value } };
  if (typeof value === "boolean") return { key, value: { boolValue: value } };
  return { key, value: Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value } };
}

/** Random hex of `bytes` bytes (a trace or span id). */
export function randomHex(bytes: number): string {
  return [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** A span in OTLP/JSON: started now, 420 ms long, status OK. */
export function jsonSpan(name: string, attributes: Record<string, string | number | boolean>, ids: { traceId?: string; spanId?: string } = {}) {
  const start = BigInt(Date.now()) * 1_000_000n;
  return {
    traceId: ids.traceId ?? randomHex(16),
    spanId: ids.spanId ?? randomHex(8),
    name,
    kind: 3,
    startTimeUnixNano: String(start),
    endTimeUnixNano: String(start + 420_000_000n),
    attributes: Object.entries(attributes).map(([k, v]) => attr(k, v)),
    status: { code: 1 },
  };
}

/** An OTLP/JSON ExportTraceServiceRequest with `spans` under one resource and scope. */
export function exportRequest(spans: unknown[]) {
  return {
    resourceSpans: [
      { resource: { attributes: [attr("service.name", "otlp-test")] }, scopeSpans: [{ scope: { name: "test-scope", version: "1.0.0" }, spans }] },
    ],
  };
}

/** A GenAI (semconv v1.37) chat span. */
export function chatSpan(ids: { traceId?: string; spanId?: string } = {}, conversation = "conv-1") {
  return jsonSpan(
    "chat gpt-4o-mini",
    {
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o-mini",
      "gen_ai.response.model": "gpt-4o-mini-2024-07-18",
      "gen_ai.usage.input_tokens": 11,
      "gen_ai.usage.output_tokens": 7,
      "gen_ai.conversation.id": conversation,
      "gen_ai.input.messages": JSON.stringify([{ role: "user", parts: [{ type: "text", content: "What is the capital of France?" }] }]),
      "gen_ai.output.messages": JSON.stringify([{ role: "assistant", parts: [{ type: "text", content: "Paris." }], finish_reason: "stop" }]),
    },
    ids,
  );
}

const hexBytes = (h: string) => new Uint8Array((h.match(/../g) ?? []).map((b) => Number.parseInt(b, 16)));

/** The OTLP/JSON request `body` as binary protobuf. */
export function toProtobuf(body: ReturnType<typeof exportRequest>): Uint8Array {
  const anyValue = (v: Record<string, unknown>) => ("intValue" in v ? { intValue: Number(v.intValue) } : v);
  const message = {
    resourceSpans: body.resourceSpans.map((rs) => ({
      resource: rs.resource,
      scopeSpans: rs.scopeSpans.map((ss) => ({
        scope: ss.scope,
        spans: (ss.spans as ReturnType<typeof jsonSpan>[]).map((s) => ({
          ...s,
          traceId: hexBytes(s.traceId),
          spanId: hexBytes(s.spanId),
          attributes: s.attributes.map((a) => ({ key: a.key, value: anyValue(a.value) })),
        })),
      })),
    })),
  };
  return opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest.encode(message as never, new protobuf.Writer()).finish();
}

/** `bytes` gzip-compressed. */
export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer());
}
