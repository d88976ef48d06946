/**
 * The body of a successful OTLP/HTTP export response (OTLP specification, "Full Success" and
 * "Partial Success"): an `ExportTraceServiceResponse` in the request's encoding, empty on full
 * success, with `partial_success {rejected_spans, error_message}` when spans were rejected.
 * Field numbers from opentelemetry-proto `collector/trace/v1/trace_service.proto` (v1.0.0):
 * `ExportTraceServiceResponse.partial_success = 1`, `ExportTracePartialSuccess.rejected_spans = 1`
 * (int64), `error_message = 2` (string). Written with protobufjs's `Writer`; the generated module
 * (./generated/) predates `partial_success`.
 */
import protobuf from "protobufjs/minimal.js";
import type { OtlpEncoding } from "./body";

/** The response body and its media type. */
export interface ExportResponse {
  body: Uint8Array | string;
  contentType: string;
}

/** `ExportTraceServiceResponse` for `rejected` spans (0: full success) in `encoding`. */
export function exportResponse(encoding: OtlpEncoding, rejected: number, errorMessage: string | null): ExportResponse {
  if (encoding === "json") {
    const body = rejected > 0 ? { partialSuccess: { rejectedSpans: String(rejected), errorMessage: errorMessage ?? "" } } : {};
    return { body: JSON.stringify(body), contentType: "application/json" };
  }
  if (rejected === 0) return { body: new Uint8Array(), contentType: "application/x-protobuf" };
  // The plain Uint8Array writer: protobufjs's Buffer writer mis-sizes strings under workerd's Buffer.
  const writer = new protobuf.Writer();
  writer.uint32((1 << 3) | 2).fork(); // partial_success, length-delimited
  writer.uint32((1 << 3) | 0).int64(rejected); // rejected_spans, varint
  if (errorMessage) writer.uint32((2 << 3) | 2).string(errorMessage); // error_message
  writer.ldelim();
  return { body: writer.finish(), contentType: "application/x-protobuf" };
}
