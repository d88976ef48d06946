/**
 * The OTLP decoders (src/otlp/decode.ts): binary protobuf and OTLP/JSON give the same spans; a
 * body that is not an export throws `MalformedOtlpError`; a malformed span is counted as
 * rejected, the others kept. The response encoder's partial success reads back with protobufjs.
 */
import protobuf from "protobufjs/minimal.js";
import { describe, expect, it } from "vitest";
import { decodeJson, decodeProtobuf, MalformedOtlpError } from "../../../src/otlp/decode";
import { exportResponse } from "../../../src/otlp/response";
import { spanRecordId } from "../../../src/otlp/record-id";
import { chatSpan, exportRequest, jsonSpan, toProtobuf } from "../../api/otlp-helpers";

describe("OTLP decoding", () => {
  it("Should decode protobuf and JSON of the same export to the same spans", () => {
    const body = exportRequest([chatSpan(), jsonSpan("other", { "http.response.status_code": 200, ratio: 0.5, cached: true })]);
    const fromJson = decodeJson(JSON.stringify(body));
    const fromProto = decodeProtobuf(toProtobuf(body));
    expect(fromJson.rejected).toBe(0);
    expect(fromProto).toEqual(fromJson);
    const [chat, other] = fromJson.spans;
    expect(chat!.attributes["gen_ai.usage.input_tokens"]).toBe(11);
    expect(other!.attributes).toEqual({ "http.response.status_code": 200, ratio: 0.5, cached: true });
    expect(chat!.resource["service.name"]).toBe("otlp-test");
    expect(chat!.endTimeUnixNano - chat!.startTimeUnixNano).toBe(420_000_000n);
  });

  it("Should read enums as integers, and leniently as their proto3 JSON names", () => {
    const named = { ...chatSpan(), kind: "SPAN_KIND_CLIENT", status: { code: "STATUS_CODE_ERROR", message: "boom" } };
    const [span] = decodeJson(JSON.stringify(exportRequest([named, { ...chatSpan(), status: { code: 2 } }]))).spans;
    expect(span).toMatchObject({ kind: 3, status: { code: 2, message: "boom" } });
  });

  it("Should throw MalformedOtlpError for what is no export request", () => {
    expect(() => decodeJson("[1,2]")).toThrow(MalformedOtlpError);
    expect(() => decodeJson("{")).toThrow(MalformedOtlpError);
    expect(() => decodeJson(JSON.stringify({ resourceSpans: [{ scopeSpans: 3 }] }))).toThrow(/scopeSpans/);
    expect(() => decodeProtobuf(new Uint8Array([0x0a, 0x05, 0x01]))).toThrow(MalformedOtlpError);
  });

  it("Should reject spans with bad ids or times and keep the rest", () => {
    const good = chatSpan();
    const shortId = { ...chatSpan(), spanId: "abcd" };
    const zeroTrace = { ...chatSpan(), traceId: "0".repeat(32) };
    const backwards = { ...chatSpan(), endTimeUnixNano: "1" };
    const decoded = decodeJson(JSON.stringify(exportRequest([good, shortId, zeroTrace, backwards])));
    expect(decoded.spans.map((s) => s.spanId)).toEqual([good.spanId]);
    expect(decoded.rejected).toBe(3);
    expect(decoded.firstError).toMatch(/spans\.1: spanId/);
  });

  it("Should encode a partial success that protobufjs reads back as rejected_spans and error_message", () => {
    const { body } = exportResponse("protobuf", 3, "spanId: bad");
    const reader = protobuf.Reader.create(body as Uint8Array);
    expect(reader.uint32()).toBe((1 << 3) | 2);
    const inner = protobuf.Reader.create(reader.bytes());
    expect(inner.uint32()).toBe(1 << 3);
    expect(Number(inner.int64())).toBe(3);
    expect(inner.uint32()).toBe((2 << 3) | 2);
    expect(inner.string()).toBe("spanId: bad");
    expect(exportResponse("protobuf", 0, null).body).toHaveLength(0);
    expect(JSON.parse(exportResponse("json", 2, "x").body as string)).toEqual({ partialSuccess: { rejectedSpans: "2", errorMessage: "x" } });
  });

  it("Should derive one UUIDv8 per project and span", async () => {
    const a = await spanRecordId("p1", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await spanRecordId("p1", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331")).toBe(a);
    expect(await spanRecordId("p2", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331")).not.toBe(a);
    // With the span's start: its first 48 bits are that time (as a UUIDv7's), the rest the digest's.
    const start = Date.UTC(2026, 10, 27, 12, 34, 56, 789);
    const timed = await spanRecordId("p1", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", start);
    expect(timed).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(timed.slice(0, 8) + timed.slice(9, 13), 16)).toBe(start);
    expect(timed.slice(14)).toBe(a.slice(14));
    expect(await spanRecordId("p1", "0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331", start)).toBe(timed);
  });
});
