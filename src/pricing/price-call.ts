/**
 * Cost of one call in US dollars, from `@pydantic/genai-prices` (bundled, maintained price
 * catalogue, prices per million tokens, cached input priced at its own rates). Used by the
 * scorer for calls logged without a cost (./fill-costs.ts). The provider id is the logged
 * provider name (openai, anthropic, google, cohere, groq, together, openrouter, mistral,
 * deepseek, azure); for `custom` the catalogue matches by model name alone. The catalogue is
 * ~0.8 MB of source and ~50 ms to load, so it is loaded on first use, off the hot path (in the
 * queue consumer).
 */
import { logError } from "../logger";

/**
 * The price table's version, recorded with every cost it computes (`llm_requests.price_version`).
 * genai-prices carries no data version or date of its own (its `auto_update_timestamp` is set only
 * for prices fetched at run time, which Sightline does not do), so the bundled table is named by
 * its package version; test/unit/pricing.test.ts checks it against the installed package.
 */
export const PRICE_TABLE_VERSION = "genai-prices@0.1.8";

/**
 * Token counts to price. `prompt_tokens` counts every input token, cached ones included (the
 * OpenAI and Gemini convention; the client libraries add Anthropic's cache tokens to its
 * `input_tokens`); `cache_read_tokens` and `cache_write_tokens` are the parts of it read from and
 * written to the provider's prompt cache, priced at the cache rates.
 */
export interface PricedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cache_read_tokens?: number | null | undefined;
  cache_write_tokens?: number | null | undefined;
}

/** A computed cost: US dollars and the table that priced it. */
export interface Cost {
  cost_usd: number;
  price_version: string;
}

type Prices = typeof import("@pydantic/genai-prices");
let prices: Promise<Prices> | undefined;

/**
 * genai-prices' usage (`input_tokens` total with cache reads and writes as parts of it). When the
 * cache counts exceed `prompt_tokens`, the producer sent Anthropic's `input_tokens` as it is (the
 * uncached part only), so the parts are added to it.
 */
export function catalogueUsage(usage: PricedUsage): Record<string, number> {
  const read = usage.cache_read_tokens ?? 0;
  const write = usage.cache_write_tokens ?? 0;
  const input = read + write > usage.prompt_tokens ? usage.prompt_tokens + read + write : usage.prompt_tokens;
  return { input_tokens: input, output_tokens: usage.completion_tokens, cache_read_tokens: read, cache_write_tokens: write };
}

/** Prices one call; null when the catalogue does not know the model (or fails). Never throws. */
export async function priceCall(model: string, provider: string, usage: PricedUsage): Promise<Cost | null> {
  try {
    prices ??= import("@pydantic/genai-prices");
    const { calcPrice } = await prices;
    const tokens = catalogueUsage(usage);
    // A named provider is priced from its own list (OpenRouter and Azure prices differ from
    // OpenAI's). A custom upstream has no list: the model name decides, then OpenAI's list
    // (the catalogue matches some OpenAI models, e.g. embeddings, only under their provider).
    const result =
      provider === "custom"
        ? (calcPrice(tokens, model) ?? calcPrice(tokens, model, { providerId: "openai" }))
        : calcPrice(tokens, model, { providerId: provider });
    if (result && Number.isFinite(result.total_price)) return { cost_usd: result.total_price, price_version: PRICE_TABLE_VERSION };
  } catch (err) {
    logError("pricing failed; cost left unknown", { model, provider }, err);
  }
  return null;
}
