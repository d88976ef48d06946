/**
 * The Billing page's line about a running retention grace period (docs/retention.md, "A lapse
 * deletes nothing for 30 days"): after a drop of tier, calls are kept under the higher tier's
 * retention until `retention_grace.until` (GET /api/billing/subscription).
 */
import type { Subscription } from "../../../server/contract";

const plan = (tier: string) => tier.charAt(0).toUpperCase() + tier.slice(1);
const days = (n: number | null) => (n === null ? "kept until deleted" : `${n} days`);

/**
 * "Data is kept under the Pro retention (365 days) until December 27, 2026; after that, the
 * Free plan's 30 days apply.", or null when no grace runs. The date is in the browser's time
 * zone, written for `locale` (the browser's by default).
 */
export function graceNotice(s: Pick<Subscription, "tier" | "retention_days" | "retention_grace">, locale?: string): string | null {
  const grace = s.retention_grace;
  if (!grace) return null;
  const until = new Date(grace.until).toLocaleDateString(locale, { year: "numeric", month: "long", day: "numeric" });
  return `Data is kept under the ${plan(grace.tier)} retention (${days(grace.retention_days)}) until ${until}; after that, the ${plan(s.tier)} plan's ${days(s.retention_days)} apply.`;
}
