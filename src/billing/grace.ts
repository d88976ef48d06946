/**
 * The retention grace period (docs/retention.md, "A lapse deletes nothing for 30 days"): when a
 * project's tier drops (a payment problem, `unpaid`; a cancellation or deleted subscription; a
 * downgrade in the portal), its logged calls keep the retention of the highest tier it held
 * for `GRACE_DAYS` from the drop. Paying again within the grace finds every call still there.
 *
 * Stored on the subscription row (src/db/schema/billing.ts): `retention_tier` (the tier whose
 * retention still applies) and `retention_grace_until` (when it stops). The retention sweep
 * (src/upkeep/retention.ts) keeps a call while either the current tier or, before the grace ends, the
 * grace tier would keep it; the API reports a running grace on GET /api/billing/subscription.
 *
 * Pure: the webhook's decisions (./transitions.ts) call `graceAfter` on every tier change.
 */
import { type Tier, TIERS } from "../enums";

/**
 * Days after a drop of tier during which retention follows the highest tier the project held
 * (30: about one billing period, time to fix a card or export the data). Calls are deleted by
 * the lower tier's retention only once the grace ends.
 */
export const GRACE_DAYS = 30;

const DAY_MS = 86_400_000;

/** The grace columns of a subscription row. */
export interface GraceColumns {
  /** The tier whose retention applies until `retention_grace_until`; null: no grace. */
  retention_tier: Tier | null;
  /** End of the grace (UTC); null: no grace. */
  retention_grace_until: Date | null;
}

/** Order of tiers by what they include (free < pro < team < enterprise, as in `TIERS`). */
const rank = (tier: Tier) => TIERS.indexOf(tier);

/** The grace of `row` if it is still running at `at` (its tier and end), else null. */
export function activeGrace(row: GraceColumns, at: Date): { tier: Tier; until: Date } | null {
  if (!row.retention_tier || !row.retention_grace_until || row.retention_grace_until.getTime() <= at.getTime()) return null;
  return { tier: row.retention_tier, until: row.retention_grace_until };
}

/**
 * The grace columns to write when the tier changes from `row.tier` to `next` at `at` (the time
 * of the event that changed it), or an empty object when they stay:
 * - a drop below the tier held: the grace keeps the higher of that tier and a running grace's
 *   tier, and runs until `GRACE_DAYS` after `at` (a second drop extends it, never shortens it);
 * - a return to the grace's tier or above (paid again, upgraded): the grace ends;
 * - anything else (same tier, a rise that stays below the grace's tier): unchanged.
 */
export function graceAfter(row: GraceColumns & { tier: Tier }, next: Tier, at: Date): Partial<GraceColumns> {
  const grace = activeGrace(row, at);
  const held = grace && rank(grace.tier) > rank(row.tier) ? grace.tier : row.tier;
  if (rank(next) < rank(row.tier)) {
    const until = new Date(Math.max(at.getTime() + GRACE_DAYS * DAY_MS, grace?.until.getTime() ?? 0));
    return { retention_tier: held, retention_grace_until: until };
  }
  if (row.retention_tier !== null && (!grace || rank(next) >= rank(grace.tier))) return { retention_tier: null, retention_grace_until: null };
  return {};
}
