import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MASKER_VERSION, maskChanges, maskPiiJson, maskPiiText, memoizedMasker, PII_CHECK_MAX_CHARS, piiFreeVersion } from "../../src/pii/mask";
import { knownIin, luhnValid } from "../../src/pii/validators";
import { trafficItems } from "../../scripts/lib/eval-items";

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
  it("Should mask every string value at any depth, keeping non-strings", () => {
    const body = { messages: [{ role: "user", content: "I am x@example.com" }], n: 2, ok: true, none: null, nested: { "a@example.com": "y@example.com" } };
    expect(maskPiiJson(body)).toEqual({
      messages: [{ role: "user", content: "I am [EMAIL]" }],
      n: 2,
      ok: true,
      none: null,
      nested: { "[EMAIL]": "[EMAIL]" },
    });
  });
});

describe("maskPiiJson: the whole JSON value (issue 32.2)", () => {
  it("Should mask personal data in object keys, keeping both values when two keys mask alike", () => {
    const body = { contacts: { "jane@example.com": "VIP", "bob@example.org": "new", "4639 6987 0006 2641": 1, "+1 415 555 0132": "cell", plain: 2 } };
    expect(maskPiiJson(body)).toEqual({ contacts: { "[EMAIL]": "VIP", "[EMAIL] #2": "new", "[CREDIT_CARD]": 1, "[PHONE]": "cell", plain: 2 } });
    // The suffix never overwrites a key that already reads like it.
    expect(maskPiiJson({ "[EMAIL]": 1, "a@example.com": 2, "[EMAIL] #2": 3, "b@example.com": 4 })).toEqual({
      "[EMAIL]": 1,
      "[EMAIL] #3": 2,
      "[EMAIL] #2": 3,
      "[EMAIL] #4": 4,
    });
  });

  it("Should keep every value, in order, whatever keys mask alike (property)", () => {
    const key = fc.oneof(
      fc.emailAddress(),
      fc.constantFrom("[EMAIL]", "[EMAIL] #2", "[EMAIL] #3", "[PHONE]", "+1 415 555 0132", "4111 1111 1111 1111", "role", "__proto__"),
      fc.string(),
    );
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(key, fc.integer({ max: 999 })), { selector: ([k]) => k, maxLength: 12 }), (entries) => {
        const body = JSON.parse(JSON.stringify(Object.fromEntries(entries))) as Record<string, unknown>;
        const masked = maskPiiJson(body) as Record<string, unknown>;
        expect(Object.keys(masked)).toHaveLength(Object.keys(body).length);
        expect(Object.values(masked)).toEqual(Object.values(body));
        for (const k of Object.keys(masked)) expect(maskPiiText(k.replace(/ #\d+$/, "")), k).toBe(k.replace(/ #\d+$/, ""));
        expect(maskPiiJson(body)).toEqual(masked);
      }),
      { numRuns: 300 },
    );
  });

  it("Should mask a JSON number that is a card, or a phone under a phone-like key", () => {
    const body = {
      card_number: 4639698700062641,
      payment: { cards: [4111111111111111, 5555555555554444] },
      phone: 4155550132,
      phoneNumber: 14155550132,
      contact: { mobile_no: 447700900123, fax: 3323456789 },
      customerTel: "4155550132",
    };
    expect(maskPiiJson(body)).toEqual({
      card_number: "[CREDIT_CARD]",
      payment: { cards: ["[CREDIT_CARD]", "[CREDIT_CARD]"] },
      phone: "[PHONE]",
      phoneNumber: "[PHONE]",
      contact: { mobile_no: "[PHONE]", fax: "[PHONE]" },
      customerTel: "[PHONE]",
    });
  });

  it("Should leave ordinary numbers alone: counts, latencies, ms timestamps, ids, prices", () => {
    const body = {
      usage: { prompt_tokens: 4155550132, completion_tokens: 18, total_tokens: 4155550150 },
      latency_ms: 4155550,
      created: 1795628400,
      created_at_ms: 1795628400000,
      timestamp_us: 1795628400000000,
      id: 4111111111111111,
      order_id: 5555555555554444,
      user_ids: [4012888888881881],
      price: 4639698700.62,
      cost_usd: 0.0000123,
      mobile_users: 12000000,
      phone_calls: 41555501,
      seed: 4155550132,
    };
    expect(maskPiiJson(body)).toEqual(body);
  });

  it("Should mask every match in a string, with no cap (1 MiB of addresses, 1 MiB of cards)", () => {
    const email = "someone.000000@example.com";
    const emails = Array.from({ length: Math.ceil(2 ** 20 / (email.length + 2)) }, (_, i) => `someone.${String(i).padStart(6, "0")}@example.com`);
    const text = emails.join(", ");
    expect(text.length).toBeGreaterThanOrEqual(2 ** 20 - 32);
    const masked = maskPiiText(text);
    expect(masked.split("[EMAIL]").length - 1).toBe(emails.length);
    expect(masked).not.toContain("@");

    const cards = Array.from({ length: Math.ceil(2 ** 20 / 21) }, () => "4639 6987 0006 2641");
    const cardText = cards.join("; ");
    expect(maskPiiText(cardText).split("[CREDIT_CARD]").length - 1).toBe(cards.length);
  });

  it("Should find a card beside other numbers (a match that runs on into a neighbour)", () => {
    expect(maskPiiText("item 1 4639 6987 0006 2641 2")).toBe("item 1 [CREDIT_CARD] 2");
    expect(maskPiiText("item 1 4639698700062641")).toBe("item 1 [CREDIT_CARD]");
    expect(maskPiiText("x 12 4639 6987 0006 2641")).toBe("x 12 [CREDIT_CARD]");
    // Runs of short groups are not cut into cards: "2 3 4 5 6 7 8 9 10 11 12 13" would be one (Luhn, Mastercard 2345).
    expect(maskPiiText("1 2 3 4 5 6 7 8 9 10 11 12 13")).toBe("1 2 3 4 5 6 7 8 9 10 11 12 13");
  });

  it("Should mask a PEM private key whole, from BEGIN to END, and to the end of its base64 run without END", () => {
    const body =
      "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNb\nvJZHtCSuYEvuNMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLO\n==";
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----`;
    expect(maskPiiText(`key:\n${pem}\nthanks`)).toBe("key:\n[PRIVATE_KEY]\nthanks");
    const rsa = `-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n${body}\n-----END RSA PRIVATE KEY-----`;
    expect(maskPiiText(rsa)).toBe("[PRIVATE_KEY]");
    expect(maskPiiText(`-----BEGIN OPENSSH PRIVATE KEY-----\n${body}\n`)).toBe("[PRIVATE_KEY]\n");
    expect(maskPiiText(`-----BEGIN EC PRIVATE KEY-----\\n${body.replace(/\n/g, "\\n")}\\n-----END EC PRIVATE KEY-----`)).toBe("[PRIVATE_KEY]");
    // A public key or certificate is not a secret.
    expect(maskPiiText(`-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----`)).toContain(body);
  });

  it("Should detect Stripe test-mode and restricted keys like live ones", () => {
    const tail = "51HqLyjWDarjtT1zdp7dcXmZ8K3sFoNJ0aQe";
    for (const prefix of ["sk_live_", "sk_test_", "rk_live_", "rk_test_"]) expect(maskPiiText(`key ${prefix}${tail} ok`), prefix).toBe("key [STRIPE_KEY] ok");
    expect(maskPiiText(`key sk_test_${"a1B2".repeat(60)} ok`)).toBe("key [STRIPE_KEY] ok");
    expect(maskPiiText(`pk_test_${tail}`)).toBe(`pk_test_${tail}`);
  });

  it("Should change no number of ordinary traffic (traffic/dev.jsonl)", () => {
    const rows = trafficItems("dev");
    expect(rows.length).toBeGreaterThan(1000);
    let numbers = 0;
    for (const row of rows) {
      for (const body of [row.request_body, row.response_body]) {
        const before = numbersOf(body);
        numbers += before.length;
        expect(numbersOf(maskPiiJson(body)), row.id).toEqual(before);
      }
    }
    expect(numbers).toBeGreaterThan(1000);
  });

  it("Should change no integer under an ordinary key, whatever its value (property)", () => {
    const key = fc.constantFrom(
      "id",
      "created",
      "created_at_ms",
      "latency_ms",
      "prompt_tokens",
      "total_tokens",
      "seed",
      "index",
      "order_id",
      "price",
      "count",
      "n",
      "max_tokens",
    );
    const number = fc.oneof(
      fc.integer(),
      fc.maxSafeNat(),
      fc.date({ noInvalidDate: true }).map((d) => d.getTime()),
      fc.double({ noNaN: true }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.oneof(number, fc.array(number))), (body) => {
        const shown = JSON.parse(JSON.stringify(body)) as unknown;
        // A card-shaped (Luhn, issuer prefix) number may be masked under a key that does not say "id".
        const cardLike = (n: unknown) => typeof n === "number" && Number.isSafeInteger(n) && luhnValid(String(n)) && knownIin(String(n));
        const masked = maskPiiJson(shown) as Record<string, unknown>;
        for (const [k, v] of Object.entries(shown as Record<string, unknown>)) {
          const vs = Array.isArray(v) ? v : [v];
          const ms = (Array.isArray(masked[k]) ? masked[k] : [masked[k]]) as unknown[];
          vs.forEach((x, i) => {
            if (!(cardLike(x) && !/id/.test(k))) expect(ms[i], `${k}: ${x}`).toBe(x);
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** Every number of a JSON value, in walk order. */
function numbersOf(v: unknown, out: number[] = []): number[] {
  if (typeof v === "number") out.push(v);
  else if (Array.isArray(v)) for (const x of v) numbersOf(x, out);
  else if (v !== null && typeof v === "object") for (const x of Object.values(v)) numbersOf(x, out);
  return out;
}

describe("memoizedMasker", () => {
  it("Should give exactly what maskPiiJson gives, for any JSON, across repeated strings", () => {
    const mask = memoizedMasker();
    const pii = fc.constantFrom("x@example.com", "call 415-555-0132", "4111 1111 1111 1111", "user", "stop", "10 Downing Street");
    const value = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    // Keys that mask (and collide), and numbers that are cards or, under a phone key, phones.
    const piiKey = fc.constantFrom("x@example.com", "y@example.com", "[EMAIL]", "phone", "card_number", "id", "4111 1111 1111 1111");
    const piiNumber = fc.constantFrom(4111111111111111, 4155550132, 1795628400000, 42);
    fc.assert(
      fc.property(fc.array(fc.oneof(value, pii, fc.dictionary(fc.string(), pii), fc.array(pii), fc.dictionary(piiKey, fc.oneof(pii, piiNumber)))), (values) => {
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

describe("maskChanges and piiFreeVersion (the export's masking hint)", () => {
  it("Should say a value changes exactly when maskPiiJson changes it, for any JSON", () => {
    const pii = fc.constantFrom("x@example.com", "call 415-555-0132", "4111 1111 1111 1111", "user", "stop", "10 Downing Street", "version 4.1.2");
    const value = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as unknown);
    const piiKey = fc.constantFrom("x@example.com", "[EMAIL]", "phone", "card_number", "id", "content");
    const piiNumber = fc.constantFrom(4111111111111111, 4155550132, 1795628400000, 42, 3.5);
    fc.assert(
      fc.property(
        fc.oneof(value, pii, fc.dictionary(fc.string(), pii), fc.array(fc.oneof(pii, value)), fc.dictionary(piiKey, fc.oneof(pii, piiNumber))),
        (v) => {
          const before = JSON.stringify(v);
          expect(maskChanges(v)).toBe(JSON.stringify(maskPiiJson(v)) !== before);
          expect(JSON.stringify(v)).toBe(before); // read only
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("Should give the masker's version for a call without personal data and null for one with it anywhere", () => {
    const body = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Recommend three novels set in Lisbon." }], max_tokens: 300 };
    const answer = { choices: [{ message: { role: "assistant", content: "The Year of the Death of Ricardo Reis..." } }], usage: { total_tokens: 412 } };
    expect(piiFreeVersion({ status: "success" }, body, answer)).toBe(MASKER_VERSION);
    expect(piiFreeVersion({ status: "success", user: "jane@example.com" }, body, answer)).toBeNull();
    expect(piiFreeVersion({}, { ...body, messages: [{ role: "user", content: "card 4111 1111 1111 1111" }] }, answer)).toBeNull();
    expect(piiFreeVersion({}, body, { ...answer, "x@example.com": 1 })).toBeNull();
    expect(piiFreeVersion({}, body, { ...answer, phone: 4155550132 })).toBeNull();
  });

  it("Should leave a call whose text passes the check's size unmarked, so the export masks it", () => {
    const text = (n: number) => "a clean sentence. ".repeat(Math.ceil(n / 18)).slice(0, n);
    const body = (n: number) => ({ messages: [{ role: "user", content: text(n) }] });
    // Keys and short values count too: "messages", "role", "user" and "content" are 23 units.
    expect(piiFreeVersion({}, body(PII_CHECK_MAX_CHARS - 23), null)).toBe(MASKER_VERSION);
    expect(piiFreeVersion({}, body(PII_CHECK_MAX_CHARS - 22), null)).toBeNull();
    // The limit is for the call: its values together.
    expect(piiFreeVersion({}, body(40_000), body(40_000))).toBeNull();
  });

  it("Should find most ordinary traffic calls free of personal data (the export's fast path is the common one)", () => {
    const items = trafficItems("dev");
    const free = items.filter((i) => piiFreeVersion({}, i.request_body, i.response_body) !== null).length;
    expect(items.length).toBeGreaterThan(500);
    expect(free / items.length).toBeGreaterThan(0.8);
  });
});
