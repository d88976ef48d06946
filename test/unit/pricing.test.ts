/**
 * Prices of calls with cached prompt tokens (issue 33.5), from the price table the scorer uses
 * (src/pricing/price-call.ts, `@pydantic/genai-prices`), checked against the providers' own
 * published prices, so a wrong mapping of cache reads or writes shows as a wrong dollar amount:
 *
 * - OpenAI, gpt-4o-mini: $0.15 input, $0.075 cached input, $0.60 output per 1M tokens
 *   (https://platform.openai.com/docs/pricing, "Text tokens" table; as published on 2026-11-27).
 * - Anthropic, Claude Sonnet 4.5: $3 base input, $3.75 5-minute cache writes, $0.30 cache hits,
 *   $15 output per MTok (https://platform.claude.com/docs/en/about-claude/pricing, "Model
 *   pricing" table; as published on 2026-11-27).
 *
 * Also: which table version priced a call, the stored cost columns of a logged call
 * (src/pricing/logged-cost.ts), and how the dashboard writes amounts (dashboard/src/lib/money.ts).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { callCost, unpricedNote, usdAmount } from "../../dashboard/src/lib/money";
import { storedCost } from "../../src/pricing/logged-cost";
import { PRICE_TABLE_VERSION, priceCall } from "../../src/pricing/price-call";

const PER_MTOK = 1e-6;

describe("Prices with prompt caching", () => {
  it("Should price an OpenAI call's cached prompt tokens at the cached-input rate", async () => {
    // usage: prompt_tokens 2000 with prompt_tokens_details.cached_tokens 1536, completion_tokens 500.
    const cost = await priceCall("gpt-4o-mini", "openai", { prompt_tokens: 2000, completion_tokens: 500, cache_read_tokens: 1536 });
    const published = (464 * 0.15 + 1536 * 0.075 + 500 * 0.6) * PER_MTOK;
    expect(cost).toEqual({ cost_usd: expect.closeTo(published, 12), price_version: PRICE_TABLE_VERSION });
    // The same call without its cache counted costs the full input rate for every prompt token.
    const uncached = await priceCall("gpt-4o-mini", "openai", { prompt_tokens: 2000, completion_tokens: 500 });
    expect(uncached!.cost_usd).toBeCloseTo((2000 * 0.15 + 500 * 0.6) * PER_MTOK, 12);
  });

  it("Should price an Anthropic call's cache reads and writes at their own rates", async () => {
    // usage: input_tokens 20, cache_creation_input_tokens 1200, cache_read_input_tokens 3000, output_tokens 50.
    const published = (20 * 3 + 1200 * 3.75 + 3000 * 0.3 + 50 * 15) * PER_MTOK;
    const priced = (prompt_tokens: number) =>
      priceCall("claude-sonnet-4-5", "anthropic", { prompt_tokens, completion_tokens: 50, cache_read_tokens: 3000, cache_write_tokens: 1200 });
    // prompt_tokens as the client libraries log it: every input token, cached ones included...
    expect((await priced(4220))!.cost_usd).toBeCloseTo(published, 12);
    // ...or Anthropic's input_tokens as it is (the uncached part only): the same price.
    expect((await priced(20))!.cost_usd).toBeCloseTo(published, 12);
  });

  it("Should leave a model the table does not know unpriced", async () => {
    expect(await priceCall("in-house-7b", "custom", { prompt_tokens: 1000, completion_tokens: 10 })).toBeNull();
  });

  it("Should name the installed price table's version", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../node_modules/@pydantic/genai-prices/package.json"), "utf8")) as { version: string };
    expect(PRICE_TABLE_VERSION).toBe(`genai-prices@${pkg.version}`);
  });
});

describe("Stored cost columns of a logged call", () => {
  it("Should keep an unknown cost null, also the 0 of older client libraries, and a reported one as reported", () => {
    expect(storedCost({ metadata: {} })).toEqual({ cost_usd: null, cost_source: null, cache_read_tokens: null, cache_write_tokens: null });
    expect(storedCost({ cost_usd: 0, metadata: { cost_source: "unknown" } }).cost_usd).toBeNull();
    expect(storedCost({ cost_usd: 0, metadata: {} })).toMatchObject({ cost_usd: 0, cost_source: "reported" });
    expect(storedCost({ cost_usd: 0.5, metadata: {} })).toMatchObject({ cost_usd: 0.5, cost_source: "reported" });
  });

  it("Should read cache tokens from OpenAI Responses usage, and ignore counts that are no token counts", () => {
    expect(storedCost({ metadata: {}, response_body: { usage: { input_tokens_details: { cached_tokens: 64 } } } }).cache_read_tokens).toBe(64);
    expect(storedCost({ metadata: {}, response_body: { usage: { cache_read_input_tokens: -1, cache_creation_input_tokens: 1.5 } } })).toMatchObject({
      cache_read_tokens: null,
      cache_write_tokens: null,
    });
  });
});

describe("Amounts in the dashboard", () => {
  it("Should write axis amounts readably at every scale, and an unknown call cost as unknown", () => {
    expect([0, 0.0025, 0.000031, 0.12, 12.345, 1234, 35_000_000].map(usdAmount)).toEqual(["$0", "0.25¢", "0.0031¢", "$0.12", "$12.35", "$1.2K", "$35M"]);
    expect([null, 0, 0.000123456, 1.23456].map(callCost)).toEqual(["unknown", "$0", "$0.000123", "$1.23"]);
    expect([0, 1, 1200].map(unpricedNote)).toEqual(["", "1 call of unknown cost not included", "1,200 calls of unknown cost not included"]);
  });
});
