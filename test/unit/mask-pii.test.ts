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
      fc.property(fc.array(fc.oneof(value, pii, fc.dictionary(fc.string(), pii), fc.array(pii))), (values) => {
        for (const v of values) {
          const expected = maskPiiJson(v);
          // It masks in place: the same text serialised, and the masker's own argument returned.
          const own = JSON.parse(JSON.stringify(v)) as unknown;
          const masked = mask(own);
          expect(JSON.stringify(masked)).toBe(JSON.stringify(expected));
          expect(masked).toEqual(expected);
          if (own !== null && typeof own === "object") expect(masked).toBe(own);
        }
      }),
    );
    // The memo hands back the masked form, never the original, on a second sight.
    expect(mask({ a: "x@example.com" })).toEqual({ a: "[EMAIL]" });
    expect(mask({ a: "x@example.com" })).toEqual({ a: "[EMAIL]" });
    expect(mask(["x@example.com", { b: ["y@example.com"] }])).toEqual(["[EMAIL]", { b: ["[EMAIL]"] }]);
  });

  it("Should keep a __proto__ key as a property and mask its value", () => {
    const parsed = JSON.parse('{"__proto__": "x@example.com", "a": {"__proto__": {"b": "y@example.com"}}}') as unknown;
    const masked = memoizedMasker()(parsed) as Record<string, unknown>;
    expect(Object.keys(masked)).toEqual(["__proto__", "a"]);
    expect(JSON.stringify(masked)).toBe('{"__proto__":"[EMAIL]","a":{"__proto__":{"b":"[EMAIL]"}}}');
    expect(Object.getPrototypeOf(masked)).toBe(Object.prototype);
  });
});
