/**
 * Tier <-> Stripe price. Each paid tier is sold through one recurring price whose id comes
 * from configuration (`STRIPE_PRICE_PRO`, `STRIPE_PRICE_TEAM`, `STRIPE_PRICE_ENTERPRISE`), so a
 * subscription's tier is always derived from the price Stripe reports, never from a client.
 */
import { type PaidTier, PAID_TIERS, type Tier } from "../enums";

/** Configured price id per paid tier; a tier without a price cannot be bought by checkout. */
export type PriceTable = Record<PaidTier, string | null>;

/** The price ids as configured (`STRIPE_PRICE_PRO`, `STRIPE_PRICE_TEAM`, `STRIPE_PRICE_ENTERPRISE`). */
export interface PriceIds {
  pro?: string | undefined;
  team?: string | undefined;
  enterprise?: string | undefined;
}

/** The price table; blank ids mean "not sold". */
export function priceTable(ids: PriceIds): PriceTable {
  const id = (v: string | undefined) => v?.trim() || null;
  return { pro: id(ids.pro), team: id(ids.team), enterprise: id(ids.enterprise) };
}

/** The price id that sells `tier`, or null when it is not configured. */
export function priceForTier(prices: PriceTable, tier: PaidTier): string | null {
  return prices[tier];
}

/** The paid tier sold by `priceId`, or null for a price that is no configured tier. */
export function tierForPrice(prices: PriceTable, priceId: string): PaidTier | null {
  return PAID_TIERS.find((tier) => prices[tier] === priceId) ?? null;
}

/**
 * The tier bought by a subscription with these item prices: the highest configured tier among
 * them (a subscription normally has one item), or null when none is a configured price.
 */
export function tierForPrices(prices: PriceTable, priceIds: readonly string[]): PaidTier | null {
  const tiers = priceIds.map((id) => tierForPrice(prices, id)).filter((t): t is PaidTier => t !== null);
  return PAID_TIERS.findLast((tier) => tiers.includes(tier)) ?? null;
}

/** True for a tier that is sold through Stripe. */
export function isPaidTier(tier: Tier): tier is PaidTier {
  return tier !== "free";
}
