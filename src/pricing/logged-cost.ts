/**
 * The cost columns of a call as it is stored (issue 33.5): an unknown cost stays unknown (null),
 * never 0, and the prompt-cache counts are taken from the fields the producer sent or, failing
 * those, from the provider's usage in the response body. Applied by both ingest paths
 * (src/db/ingest.ts, src/db/ingest-batch.ts); the scorer later prices calls whose cost is null
 * (./fill-costs.ts).
 */
import { isObject } from "../util";

/** The logged fields this module reads (a `LogRecord`, src/db/ingest.ts). */
export interface LoggedCall {
  cost_usd?: number | null | undefined;
  cache_read_tokens?: number | null | undefined;
  cache_write_tokens?: number | null | undefined;
  response_body?: unknown;
  metadata: Record<string, unknown>;
}

/** The stored cost columns of one call (`llm_requests`). */
export interface StoredCost {
  /** US dollars; null when unknown. */
  cost_usd: number | null;
  /** `reported` when the producer gave a cost; null when unknown (the scorer may price it later). */
  cost_source: "reported" | null;
  cache_read_tokens: number | null;
  cache_write_tokens: number | null;
}

/** Largest value of an `integer` column. */
const INT_MAX = 2_147_483_647;

/** `v` when it is a token count (a non-negative integer an `integer` column holds), else undefined. */
const count = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= INT_MAX ? (v as number) : undefined);

/** `obj[key]` when `obj` is an object. */
const field = (obj: unknown, key: string): unknown => (isObject(obj) ? obj[key] : undefined);

/**
 * Prompt-cache token counts a provider reported in a response body, each undefined when absent:
 * - OpenAI Chat Completions `usage.prompt_tokens_details.cached_tokens` (and OpenRouter's
 *   `cache_write_tokens` beside it), Responses `usage.input_tokens_details.cached_tokens`;
 * - Anthropic Messages `usage.cache_read_input_tokens` / `usage.cache_creation_input_tokens`;
 * - Gemini `usageMetadata.cachedContentTokenCount`.
 */
export function reportedCacheTokens(responseBody: unknown): { read?: number | undefined; write?: number | undefined } {
  const usage = field(responseBody, "usage");
  const details = field(usage, "prompt_tokens_details") ?? field(usage, "input_tokens_details");
  const gemini = field(responseBody, "usageMetadata");
  return {
    read: count(field(details, "cached_tokens")) ?? count(field(usage, "cache_read_input_tokens")) ?? count(field(gemini, "cachedContentTokenCount")),
    write: count(field(details, "cache_write_tokens")) ?? count(field(usage, "cache_creation_input_tokens")),
  };
}

/**
 * The stored cost columns of a logged call. `cost_usd` absent or null is unknown; so is the 0
 * that older client libraries send with `metadata.cost_source: "unknown"` (they had no price
 * table and no way to say "none"). Cache counts sent by the producer win over the response body's.
 */
export function storedCost(call: LoggedCall): StoredCost {
  const unknown = call.cost_usd === undefined || call.cost_usd === null || (call.cost_usd === 0 && call.metadata.cost_source === "unknown");
  const cache = reportedCacheTokens(call.response_body);
  return {
    cost_usd: unknown ? null : (call.cost_usd as number),
    cost_source: unknown ? null : "reported",
    cache_read_tokens: call.cache_read_tokens ?? cache.read ?? null,
    cache_write_tokens: call.cache_write_tokens ?? cache.write ?? null,
  };
}
