import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { maskPiiJson, maskPiiText, memoizedMasker } from "../../src/export/mask-pii";

describe("maskPiiText", () => {
  it("Should replace each detected span by its kind and keep the rest", () => {
    expect(maskPiiText("mail jane.doe@example.com or pay with 4111 1111 1111 1111 today")).toBe("mail [EMAIL] or pay with [CREDIT_CARD] today");
  });

  it("Should leave text without PII unchanged", () => {
    expect(maskPiiText("recommend three novels")).toBe("recommend three novels");
  });

  it("Should mask several hits of one kind at their own offsets", () => {
    expect(maskPiiText("a@example.com, b@example.org")).toBe("[EMAIL], [EMAIL]");
  });
});

describe("maskPiiJson", () => {
  it("Should mask every string value at any depth, keeping keys and non-strings", () => {
    const body = { messages: [{ role: "user", content: "I am x@example.com" }], n: 2, ok: true, none: null, nested: { "a@example.com": "y@example.com" } };
    expect(maskPiiJson(body)).toEqual({
      messages: [{ role: "user", content: "I am [EMAIL]" }],
      n: 2,
      ok: true,
      none: null,
      nested: { "a@example.com": "[EMAIL]" },
    });
  });
});

describe("memoizedMasker", () => {
  it("Should give exactly what maskPiiJson gives, for any JSON, across repeated strings", () => {
    const mask = memoizedMasker();
    const pii = fc.constantFrom("x@example.com", "call 415-555-0132", "4111 1111 1111 1111", "user", "stop", "10 Downing Street");
    const value = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    fc.assert(
      fc.property(fc.array(fc.oneof(value, pii, fc.dictionary(fc.string(), pii))), (values) => {
        for (const v of values) expect(mask(v)).toEqual(maskPiiJson(v));
      }),
    );
    // The memo hands back the masked form, never the original, on a second sight.
    expect(mask({ a: "x@example.com" })).toEqual({ a: "[EMAIL]" });
    expect(mask({ a: "x@example.com" })).toEqual({ a: "[EMAIL]" });
  });

  it("Should keep a __proto__ key as a property", () => {
    const parsed = JSON.parse('{"__proto__": "x@example.com"}') as unknown;
    expect(Object.keys(memoizedMasker()(parsed) as object)).toEqual(["__proto__"]);
  });
});
