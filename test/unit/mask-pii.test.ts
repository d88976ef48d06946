import { describe, expect, it } from "vitest";
import { maskPiiJson, maskPiiText } from "../../src/export/mask-pii";

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
