/**
 * US dollar amounts as the dashboard shows them (issue 33.5): readable at every scale with
 * `Intl.NumberFormat`, and an unknown cost (`cost_usd: null`) as "unknown", never $0.
 */

/** Sub-cent amounts in cents, two significant digits: 0.25¢, 0.0031¢. */
const cents = new Intl.NumberFormat("en-US", { maximumSignificantDigits: 2 });
/** Amounts under $1,000 to the cent: $0.12, $12.35. */
const dollars = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 2 });
/** Larger amounts in compact notation: $1.2K, $35M. */
const compact = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", notation: "compact", maximumSignificantDigits: 2 });
/** One call's cost, three significant digits: $0.000123, $1.23. */
const precise = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumSignificantDigits: 3 });

/** An amount on an axis or in a total: $0, 0.25¢ (under a cent), $0.12, $12.35, $1.2K. */
export function usdAmount(v: number): string {
  if (v === 0) return "$0";
  if (Math.abs(v) < 0.01) return `${cents.format(v * 100)}¢`;
  return Math.abs(v) < 1000 ? dollars.format(v) : compact.format(v);
}

/** The cost of one call: "unknown" when it is not known, else US dollars to three significant digits. */
export function callCost(v: number | null): string {
  return v === null ? "unknown" : precise.format(v);
}

/** "N calls of unknown cost" (not in the sums), or "" when every call is priced. */
export function unpricedNote(unpriced: number): string {
  if (unpriced === 0) return "";
  return `${unpriced.toLocaleString("en-US")} ${unpriced === 1 ? "call" : "calls"} of unknown cost not included`;
}
