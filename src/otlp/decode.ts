/**
 * Decodes an OTLP/HTTP trace export (`ExportTraceServiceRequest`, OTLP specification 1.x,
 * "OTLP/HTTP" section) into plain spans. Two encodings share one normaliser:
 * - binary protobuf (`application/x-protobuf`): decoded by the protobufjs static module in
 *   ./generated/trace.js, generated from the official opentelemetry-proto files (see its header);
 * - JSON (`application/json`): the OTLP/JSON mapping of the same messages: lowerCamelCase field
 *   names, trace and span ids as hex (not base64), enums as integers, 64-bit integers as decimal
 *   strings or numbers, `bytesValue` as base64.
 * Both decoders yield objects with the same field names, so one walk turns them into `OtlpSpan`s.
 * A body that is not an export request at all throws `MalformedOtlpError` (the route answers 400);
 * a span that is malformed on its own (ids of the wrong length, no times, end before start) is
 * counted in `rejected` and skipped, as the specification's partial success describes.
 */
import { opentelemetry } from "./generated/trace.js";
import { isObject, toHex } from "../util";

const ExportTraceServiceRequest = opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

/** An attribute value: OTLP's `AnyValue` as plain JSON (int64 beyond 2^53 keeps its decimal text). */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };

/** Attributes by key (later duplicates win, as OTLP leaves duplicates undefined). */
export type Attributes = Record<string, AttrValue>;

/** A span event (`Span.Event`). */
export interface OtlpEvent {
  name: string;
  /** Time of the event, nanoseconds since the Unix epoch. */
  timeUnixNano: bigint;
  attributes: Attributes;
}

/** One span with what its resource and scope say about it. */
export interface OtlpSpan {
  /** 32 lowercase hex digits. */
  traceId: string;
  /** 16 lowercase hex digits. */
  spanId: string;
  /** 16 hex digits, or null for a root span. */
  parentSpanId: string | null;
  name: string;
  /** `Span.SpanKind` as its integer (0 unspecified .. 5 consumer). */
  kind: number;
  /** Nanoseconds since the Unix epoch. */
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Attributes;
  events: OtlpEvent[];
  /** `Status.StatusCode`: 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The resource's attributes (e.g. `service.name`). */
  resource: Attributes;
  /** The instrumentation scope (e.g. `@traceloop/instrumentation-openai`). */
  scope: { name: string; version: string };
}

/** What an export request held: its well-formed spans and the number of malformed ones. */
export interface DecodedExport {
  spans: OtlpSpan[];
  rejected: number;
  /** Why the first rejected span was rejected (for `partial_success.error_message`). */
  firstError: string | null;
}

/** The body is not an OTLP trace export request (answered 400 `{detail}`). */
export class MalformedOtlpError extends Error {
  override name = "MalformedOtlpError";
}

/** A span that cannot be read on its own; counted as rejected. */
class MalformedSpanError extends Error {}

/** Decodes a binary protobuf `ExportTraceServiceRequest`. Throws `MalformedOtlpError`. */
export function decodeProtobuf(bytes: Uint8Array): DecodedExport {
  let message: unknown;
  try {
    message = ExportTraceServiceRequest.decode(bytes);
  } catch (err) {
    throw new MalformedOtlpError(`not an OTLP protobuf ExportTraceServiceRequest: ${(err as Error).message}`);
  }
  return normalise(message);
}

/** Decodes an OTLP/JSON `ExportTraceServiceRequest` from its text. Throws `MalformedOtlpError`. */
export function decodeJson(text: string): DecodedExport {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MalformedOtlpError("malformed JSON");
  }
  if (!isObject(value)) throw new MalformedOtlpError("an OTLP/JSON ExportTraceServiceRequest must be a JSON object");
  return normalise(value);
}

/** Field `key` of `value` as an array of objects (absent: empty); throws when it is something else. */
function list(value: unknown, key: string, where: string): Record<string, unknown>[] {
  const items = isObject(value) ? value[key] : undefined;
  if (items === undefined || items === null) return [];
  if (!Array.isArray(items) || !items.every(isObject)) throw new MalformedOtlpError(`${where}.${key}: must be an array of objects`);
  return items as Record<string, unknown>[];
}

/** Walks resourceSpans → scopeSpans → spans; see the module doc. */
function normalise(request: unknown): DecodedExport {
  const out: DecodedExport = { spans: [], rejected: 0, firstError: null };
  list(request, "resourceSpans", "body").forEach((rs, i) => {
    const resource = attributes(isObject(rs.resource) ? rs.resource.attributes : undefined);
    list(rs, "scopeSpans", `resourceSpans.${i}`).forEach((ss, j) => {
      const scope = isObject(ss.scope) ? { name: text(ss.scope.name), version: text(ss.scope.version) } : { name: "", version: "" };
      list(ss, "spans", `resourceSpans.${i}.scopeSpans.${j}`).forEach((raw, k) => {
        try {
          out.spans.push({ ...span(raw), resource, scope });
        } catch (err) {
          if (!(err instanceof MalformedSpanError)) throw err;
          out.rejected += 1;
          out.firstError ??= `resourceSpans.${i}.scopeSpans.${j}.spans.${k}: ${err.message}`;
        }
      });
    });
  });
  return out;
}

/** One span's own fields; throws `MalformedSpanError`. */
function span(raw: Record<string, unknown>): Omit<OtlpSpan, "resource" | "scope"> {
  const traceId = id(raw.traceId, 16, "traceId");
  const spanId = id(raw.spanId, 8, "spanId");
  const noParent = raw.parentSpanId == null || raw.parentSpanId === "" || (raw.parentSpanId instanceof Uint8Array && raw.parentSpanId.length === 0);
  const parent = noParent ? null : id(raw.parentSpanId, 8, "parentSpanId", true);
  const startTimeUnixNano = nanos(raw.startTimeUnixNano, "startTimeUnixNano");
  const endTimeUnixNano = nanos(raw.endTimeUnixNano, "endTimeUnixNano");
  if (startTimeUnixNano === 0n) throw new MalformedSpanError("startTimeUnixNano: required");
  if (endTimeUnixNano < startTimeUnixNano) throw new MalformedSpanError("endTimeUnixNano: must not be before startTimeUnixNano");
  const status = isObject(raw.status) ? raw.status : {};
  const events = (Array.isArray(raw.events) ? raw.events : []).filter(isObject).map((e) => ({
    name: text(e.name),
    timeUnixNano: nanos(e.timeUnixNano, "events.timeUnixNano"),
    attributes: attributes(e.attributes),
  }));
  return {
    traceId,
    spanId,
    parentSpanId: parent,
    name: text(raw.name),
    kind: enumValue(raw.kind, SPAN_KINDS),
    startTimeUnixNano,
    endTimeUnixNano,
    attributes: attributes(raw.attributes),
    events,
    status: { code: enumValue(status.code, STATUS_CODES), message: text(status.message) },
  };
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** `Span.SpanKind` names, by value (trace.proto). */
const SPAN_KINDS = ["SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER", "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"];
/** `Status.StatusCode` names, by value (trace.proto). */
const STATUS_CODES = ["STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"];

/** An enum field: its integer (OTLP/JSON and protobuf), or, leniently, its name as proto3 JSON writes it; 0 otherwise. */
function enumValue(v: unknown, names: readonly string[]): number {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  return typeof v === "string" ? Math.max(0, names.indexOf(v)) : 0;
}

/** A trace or span id of `bytes` bytes: raw bytes (protobuf) or hex text (JSON); all-zero ids are invalid. */
function id(value: unknown, bytes: number, field: string, allowZero = false): string {
  const hexId = value instanceof Uint8Array ? toHex(value) : typeof value === "string" ? value.toLowerCase() : "";
  if (!new RegExp(`^[0-9a-f]{${bytes * 2}}$`).test(hexId)) throw new MalformedSpanError(`${field}: must be ${bytes} bytes (${bytes * 2} hex digits in JSON)`);
  if (!allowZero && /^0+$/.test(hexId)) throw new MalformedSpanError(`${field}: must not be all zeros`);
  return hexId;
}

/** A 64-bit unsigned integer: a protobufjs Long, a number, or decimal text (OTLP/JSON). */
function nanos(value: unknown, field: string): bigint {
  if (value === undefined || value === null || value === "") return 0n;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return BigInt(value);
  if (isObject(value) && typeof value.low === "number" && typeof value.high === "number") {
    return BigInt.asUintN(64, (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0));
  }
  throw new MalformedSpanError(`${field}: must be an unsigned 64-bit integer`);
}

/** A signed 64-bit integer as a JS number when exact, else its decimal text. */
function int64(value: unknown): number | string {
  if (typeof value === "number") return value;
  if (typeof value === "string") return Number.isSafeInteger(Number(value)) ? Number(value) : value;
  if (isObject(value) && typeof value.low === "number" && typeof value.high === "number") {
    const n = BigInt.asIntN(64, (BigInt(value.high >>> 0) << 32n) | BigInt(value.low >>> 0));
    return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString();
  }
  return 0;
}

/** `repeated KeyValue` as an object. */
function attributes(kvs: unknown): Attributes {
  const out: Attributes = {};
  if (!Array.isArray(kvs)) return out;
  for (const kv of kvs) if (isObject(kv) && typeof kv.key === "string") out[kv.key] = anyValue(kv.value);
  return out;
}

/** OTLP `AnyValue` as plain JSON (`bytesValue` as base64 text, as OTLP/JSON writes it). */
function anyValue(v: unknown): AttrValue {
  if (!isObject(v)) return null;
  if (v.stringValue != null) return String(v.stringValue);
  if (v.boolValue != null) return Boolean(v.boolValue);
  if (v.intValue != null) return int64(v.intValue);
  if (v.doubleValue != null) return Number(v.doubleValue);
  if (isObject(v.arrayValue)) return (Array.isArray(v.arrayValue.values) ? v.arrayValue.values : []).map(anyValue);
  if (isObject(v.kvlistValue)) return attributes(v.kvlistValue.values);
  if (v.bytesValue instanceof Uint8Array) return btoa(String.fromCharCode(...v.bytesValue));
  if (typeof v.bytesValue === "string") return v.bytesValue;
  return null;
}
