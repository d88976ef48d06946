/**
 * Costs for calls that were logged without one (`cost_usd` null: the client libraries, the
 * capture proxy and direct POST /internal/log callers that send none). The scorer prices those
 * calls before scoring, from the price table of ./price-call.ts with their cached prompt tokens
 * at the cache rates, so `unbounded_consumption` sees the cost and `GET /api/requests` reports
 * it with `cost_source: "genai-prices"` and the table's version. A model the table does not
 * know keeps a null (unknown) cost.
 */
import type { ScorableCall } from "../scoring/types";
import { type Cost, priceCall } from "./price-call";

/** True for a call logged without a cost that has tokens to price. */
export function needsPricing(call: ScorableCall): boolean {
  return call.cost_usd === null && call.prompt_tokens + call.completion_tokens > 0;
}

/**
 * Prices the calls that need it. Returns request id -> cost, only for calls the catalogue knows.
 * Never throws.
 */
export async function priceUnpricedCalls(calls: readonly (ScorableCall & { id: string })[]): Promise<Map<string, Cost>> {
  const costs = new Map<string, Cost>();
  for (const call of calls) {
    if (!needsPricing(call)) continue;
    // The model that answered, when the capture proxy saw it differ from the one asked for.
    const answered = call.metadata?.response_model;
    const cost = await priceCall(typeof answered === "string" ? answered : call.model, call.provider, call);
    if (cost) costs.set(call.id, cost);
  }
  return costs;
}
