import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { findPii, nextMatch } from "../../../src/pii/detect";
import { scorePii } from "../../../src/scoring/scorers/pii_detection/rules";
import { ibanValid, luhnValid, ssnValid } from "../../../src/pii/validators";
import { splitItems } from "../../../scripts/lib/eval-items";
import { PII_DETECTORS } from "../../../src/pii/patterns";
import { extractCall } from "../../../src/scoring/text";
import cases from "./cases/pii-detection.json";
import { ask, itEachCase } from "./helpers";

const kinds = (t: string) => findPii(t).map((h) => h.id);

describe("pii validators", () => {
  it("Should apply Luhn, IBAN mod-97 and SSA rules", () => {
    expect(luhnValid("4111 1111 1111 1111")).toBe(true);
    expect(luhnValid("4111 1111 1111 1112")).toBe(false);
    expect(ibanValid("GB82 WEST 1234 5698 7654 32")).toBe(true);
    expect(ibanValid("GB82 WEST 1234 5698 7654 33")).toBe(false);
    expect(ssnValid("123", "45", "6789")).toBe(true);
    for (const [a, g, s] of [
      ["000", "12", "3456"],
      ["666", "12", "3456"],
      ["912", "12", "3456"],
      ["123", "00", "3456"],
      ["123", "45", "0000"],
    ]) {
      expect(ssnValid(a!, g!, s!)).toBe(false);
    }
  });
});

describe("pii_detection", () => {
  itEachCase(cases, (t, kind) => expect(kinds(t), t).toContain(kind));

  it("Should find IBANs and cards in the spacings and punctuation people use, and keep the validators", () => {
    for (const t of [
      "Please wire it to NO 44 1850.05.14562 today",
      "My IBAN is ES15-0049-1806-9121-1186-9374 and thanks",
      "iban: de89 3704 0044 0532 0130 00.",
      "Konto DE89.3704.0044.0532.0130.00 bitte",
    ]) {
      expect(kinds(t), t).toContain("iban");
    }
    expect(kinds("card 4111.1111.1111.1111 expires 09/29")).toContain("credit_card");
    expect(kinds("card 4111-1111 1111.1111")).toContain("credit_card");
    // mod-97 and Luhn still decide: one changed digit is not personal data.
    expect(kinds("Invoice ES15-0049-1806-9121-1186-9375 total")).not.toContain("iban");
    expect(kinds("card 4111.1111.1111.1112 expires")).not.toContain("credit_card");
    expect(kinds("version 1.2.3.4567.8901.2345 released")).toEqual([]);
  });

  it("Should find credentials", () => {
    expect(kinds("key AKIAIOSFODNN7EXAMPLE")).toContain("aws_access_key");
    expect(kinds(`token ghp_${"a1B2".repeat(9)}`)).toContain("github_token");
    expect(kinds("-----BEGIN RSA PRIVATE KEY-----\nMIIE...")).toContain("private_key");
    for (const prefix of ["sk_live_", "sk_test_", "rk_live_", "rk_test_"])
      expect(kinds(`STRIPE_KEY=${prefix}51HqLyjWDarjtT1zdp7dcXmZ8K3sF`)).toContain("stripe_key");
    for (const token of ["xoxb-1234567890-abcdefghij", "xoxe.xoxp-1-Mi0yLTE3MjU0", "xoxe-1-My0xLTE3MjU0NjQ", "xapp-1-A0123BCDEFG-1234567890123"]) {
      expect(kinds(`token ${token}`), token).toContain("slack_token");
    }
    // The whole PEM block is one hit, its body included.
    const pem = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n-----END PRIVATE KEY-----";
    expect(findPii(`key: ${pem} ok`).map((h) => [h.id, h.start, h.end])).toEqual([["private_key", 5, 5 + pem.length]]);
    // Every hit is reported, however many (no cap).
    expect(findPii(Array.from({ length: 500 }, (_, i) => `u${i}@example.com`).join(" "))).toHaveLength(500);
    const jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    expect(kinds(`Authorization: Bearer ${jwt}`)).toContain("jwt");
    expect(kinds("eyJub3RfYWxnIjoxfQ.eyJzdWIiOiIxIn0.abcdefghijkl")).not.toContain("jwt");
  });

  it("Should not flag hard negatives", () => {
    const negatives = [
      "The library barcode on the returned book reads 4651 5300 2615 3307.",
      "Part number 000-01-6734 is back in stock at the Denver warehouse.",
      "Inventory lot 666-44-5462 was moved to aisle 14.",
      "Order #7019502604 is on backorder; we will email you when it ships.",
      "Build 4.11.25174.2051 failed the integration tests.",
      "Upgrade to version 1.2.3.4 before Friday.",
      "The request id for this error is 3cf49fbf-78f8-47e3-bdb1-515cece2e7dd.",
      "Reverted commit 9fceb02d0ae598e95dc970b74767f19372d61af8 on main.",
      "The meeting is at 10:30:45 on 2024-03-12 in room 4.",
      "The results were sent 3 via email and et al. 2019 agree.",
    ];
    for (const t of negatives) expect(scorePii(ask(t)).score_label, t).toBe("safe");
  });

  it("Should weigh completion disclosure above PII the prompt already had", () => {
    const echoed = scorePii(ask("My email is jane.doe@example.org", "Noted: jane.doe@example.org"));
    const disclosed = scorePii(ask("What is Bob's email?", "Bob's email is bob.smith@example.org"));
    expect(echoed.score_value).toBe(4);
    expect(disclosed.score_value).toBe(5);
    expect(disclosed.rationale).toContain("completion");
  });

  it("Should never copy the value into the rationale", () => {
    const r = scorePii(ask("card 4111 1111 1111 1111 and SSN 123-45-6789"));
    expect(r.score_label).toBe("unsafe");
    expect(r.rationale).not.toMatch(/4111|6789/);
  });

  it("Should be unscored with no text", () => {
    expect(scorePii(ask("")).score_label).toBe("unscored");
  });
});

describe("pii_detection: detector gates", () => {
  it("Should skip a detector only on texts its pattern cannot match (the gate never hides a match)", () => {
    // Every text of the PII train and dev items, plus each text upper- and lower-cased.
    const texts = (["train", "dev"] as const).flatMap((split) =>
      splitItems(split, "pii_detection").flatMap((item) => {
        const x = extractCall(item.request_body, item.response_body);
        return [...x.system, ...x.user, ...x.documents, ...x.history, ...x.completion];
      }),
    );
    expect(texts.length).toBeGreaterThan(3000);
    const gateOpen = (requires: readonly string[], t: string) => requires.some((r) => (r === "0-9" ? /[0-9]/.test(t) : t.includes(r)));
    let matched = 0;
    for (const t of texts.flatMap((t) => [t, t.toUpperCase(), t.toLowerCase()])) {
      for (const d of PII_DETECTORS) {
        d.pattern.lastIndex = 0;
        const hit = d.pattern.test(t);
        d.pattern.lastIndex = 0;
        if (!hit) continue;
        matched++;
        expect(gateOpen(d.requires, t), `${d.id} matched a text its gate would skip`).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(1000);
  });
});

describe("pii_detection: anchored search", () => {
  /** Every match of a detector's pattern, scanning every position (the reference). */
  function plain(re: RegExp, text: string): Array<[number, string]> {
    const out: Array<[number, string]> = [];
    const g = new RegExp(re.source, re.flags);
    for (let m = g.exec(text); m !== null; m = g.exec(text)) {
      out.push([m.index, m[0]]);
      if (m[0].length === 0) g.lastIndex++;
    }
    return out;
  }
  /** The same through nextMatch, which jumps from landmark to landmark. */
  function anchored(d: (typeof PII_DETECTORS)[number], text: string): Array<[number, string]> {
    const out: Array<[number, string]> = [];
    let from = 0;
    for (let m = nextMatch(d, text, from); m !== null; m = nextMatch(d, text, from)) {
      out.push([m.index, m[0]]);
      from = m[0].length > 0 ? m.index + m[0].length : m.index + 1;
    }
    return out;
  }
  const withAnchor = PII_DETECTORS.filter((d) => d.anchor);

  it("Should find exactly the matches of a full scan, on every text of the corpus", () => {
    expect(withAnchor.map((d) => d.id).sort()).toEqual(["email", "ip_address", "street_address"]);
    const texts = (["train", "dev"] as const).flatMap((split) =>
      splitItems(split, "pii_detection").flatMap((item) => {
        const x = extractCall(item.request_body, item.response_body);
        return [...x.system, ...x.user, ...x.documents, ...x.history, ...x.completion];
      }),
    );
    let found = 0;
    for (const t of texts) {
      for (const d of withAnchor) {
        const expected = plain(d.pattern, t);
        found += expected.length;
        expect(anchored(d, t), d.id).toEqual(expected);
      }
    }
    expect(found).toBeGreaterThan(500);
  });

  it("Should find exactly the matches of a full scan, on random texts near the landmarks", () => {
    const piece = fc.oneof(
      fc.constantFrom(
        "@",
        ":",
        "::",
        " 12",
        ". 7",
        "a",
        "Z",
        "é",
        "𝐀",
        "-",
        ".",
        "_",
        "+",
        " ",
        "\n",
        "ff",
        "db8",
        "user",
        ".com",
        "Hauptstraße",
        "Jean-Paul",
        "x".repeat(70),
      ),
      fc.string({ maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom(...withAnchor), (parts, d) => {
        const text = parts.join("");
        expect(anchored(d, text)).toEqual(plain(d.pattern, text));
      }),
      { numRuns: 5_000 },
    );
  });
});
