/**
 * Costs for calls that were logged without one. The client libraries send `cost_usd: 0` with
 * `metadata.cost_source: "unknown"` (a price table does not belong in an application's
 * process, and the Python library has no dependencies); the scorer prices those calls from
 * the same catalogue as the capture proxy, before scoring, so `unbounded_consumption` sees
 * the cost and `GET /api/requests` reports it.
 */
import type { ScorableCall } from "../scoring/types";
import { priceCall } from "./price-call";

/** `metadata.cost_source` of a call priced here (the proxy uses the same value). */
export const PRICED_SOURCE = "genai-prices";

/** True for a call logged without a cost that has tokens to price. */
export function needsPricing(call: ScorableCall): boolean {
  return call.metadata?.cost_source === "unknown" && call.cost_usd === 0 && call.prompt_tokens + call.completion_tokens > 0;
}

/**
 * Prices the calls that need it. Returns request id -> cost in US dollars, only for calls the
 * catalogue knows (an unknown model stays at 0, `unknown`). Never throws.
 */
export async function priceUnpricedCalls(calls: readonly (ScorableCall & { id: string })[]): Promise<Map<string, number>> {
  const costs = new Map<string, number>();
  for (const call of calls) {
    if (!needsPricing(call)) continue;
    const cost = await priceCall(call.model, call.provider, call);
    if (cost.source === PRICED_SOURCE && cost.cost_usd > 0) costs.set(call.id, cost.cost_usd);
  }
  return costs;
}
