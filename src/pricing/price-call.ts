/**
 * Cost of one call in US dollars, from `@pydantic/genai-prices` (bundled, maintained price
 * catalogue, prices per million tokens). Used by the capture proxy when it logs a call and by
 * the scorer for calls logged without a cost (the client libraries send `cost_source:
 * "unknown"`). The provider id is the logged provider name (openai, anthropic, cohere, groq,
 * together, openrouter, mistral, deepseek, azure); for `custom` the catalogue matches by model
 * name alone. The catalogue is ~0.8 MB of source and ~50 ms to load, so it is loaded on first
 * use, off the hot path (after the proxy's response; in the queue consumer).
 */
import { logError } from "../logger";

/** Token counts to price; `cached_tokens` (prompt tokens read from the provider's cache) may be omitted. */
export interface PricedUsage {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens?: number;
}

/** The cost and where it came from. */
export interface Cost {
  /** US dollars; 0 when unknown. */
  cost_usd: number;
  /** `genai-prices` when priced, `unknown` when the model is not in the catalogue. */
  source: "genai-prices" | "unknown";
}

type Prices = typeof import("@pydantic/genai-prices");
let prices: Promise<Prices> | undefined;

/** Prices one call; never throws (an unknown model or a catalogue error costs 0, `unknown`). */
export async function priceCall(model: string, provider: string, usage: PricedUsage): Promise<Cost> {
  try {
    prices ??= import("@pydantic/genai-prices");
    const { calcPrice } = await prices;
    const tokens = {
      input_tokens: usage.prompt_tokens,
      output_tokens: usage.completion_tokens,
      // genai-prices: cache reads are a partition of input_tokens, never more than it.
      cache_read_tokens: Math.min(usage.cached_tokens ?? 0, usage.prompt_tokens),
    };
    // A named provider is priced from its own list (OpenRouter and Azure prices differ from
    // OpenAI's). A custom upstream has no list: the model name decides, then OpenAI's list
    // (the catalogue matches some OpenAI models, e.g. embeddings, only under their provider).
    const result =
      provider === "custom"
        ? (calcPrice(tokens, model) ?? calcPrice(tokens, model, { providerId: "openai" }))
        : calcPrice(tokens, model, { providerId: provider });
    if (result && Number.isFinite(result.total_price)) return { cost_usd: result.total_price, source: "genai-prices" };
  } catch (err) {
    logError("pricing failed; cost logged as 0", { model, provider }, err);
  }
  return { cost_usd: 0, source: "unknown" };
}
