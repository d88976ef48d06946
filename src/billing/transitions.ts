/**
 * How a billing effect changes a project's subscription row: pure decisions, applied by
 * `processPaymentWebhookEvent` inside the transaction that records the event.
 *
 * Subscription status -> tier (Stripe's statuses:
 * https://docs.stripe.com/billing/subscriptions/overview#subscription-statuses):
 * - `active`, `trialing`: the price's tier.
 * - `past_due`: the price's tier is kept. Stripe is still retrying the payment (Smart Retries)
 *   and the subscription keeps creating invoices; cutting the limit during dunning would punish
 *   a card that is merely being retried. The status is stored so the dashboard can warn.
 * - `unpaid`: retries are exhausted and Stripe keeps the subscription open but unpaid, so the
 *   project falls back to the free limit. The subscription stays linked: when the customer
 *   pays, Stripe sends `customer.subscription.updated` with `active` and the tier returns.
 * - `incomplete` (first payment not made yet), `paused`: free limit, subscription linked.
 * - `canceled`, `incomplete_expired`, or `customer.subscription.deleted`: the subscription is
 *   over; the project returns to free and the subscription is unlinked (the customer is kept
 *   for the portal and a later checkout). The counter and period are left alone, so a project
 *   over the free limit is refused until its current period resets.
 *
 * Retention: every change of tier also decides the retention grace period (./grace.ts): a drop
 * keeps the retention of the highest tier held for `GRACE_DAYS` from the event's time, so a
 * lapse deletes nothing before the grace ends; a return to that tier ends the grace.
 *
 * Ordering (Stripe does not guarantee delivery order, https://docs.stripe.com/webhooks#event-ordering):
 * subscription-state events apply only when their `created` time is not older than
 * `last_event_created` (newest wins; equal seconds apply in arrival order). A subscription
 * state read back from the API is current by definition and always applies. `invoice.paid`
 * is ordered by the period it pays for: it starts a new period only when that period ends after
 * the current one (after the current start, for a subscription's first invoice), and never when
 * it pays for exactly the current period: an invoice re-sent under a new event id (or another
 * invoice for the same period) leaves the counter alone, so the webhook is idempotent on the
 * period, not only on the event id.
 */
import type { InvoicePaid, CheckoutCompleted, SubscriptionState } from "./effects";
import { graceAfter } from "./grace";
import type { PAYMENT_WEBHOOK_OUTCOMES, Tier } from "../enums";

/** What processing an event did (stored in `webhook_events.outcome`). */
export type Outcome = (typeof PAYMENT_WEBHOOK_OUTCOMES)[number];

/** The columns of a subscription row that billing reads and writes. */
export interface BillingRow {
  tier: Tier;
  status: string;
  payment_customer_id: string | null;
  payment_subscription_id: string | null;
  requests_this_period: number;
  period_start_at: Date;
  period_reset_at: Date;
  /** Unix seconds of the newest subscription-state event applied, or null. */
  last_event_created: number | null;
  /** Retention grace period after a drop of tier (./grace.ts): the tier whose retention still applies, or null. */
  retention_tier: Tier | null;
  /** End of the retention grace period, or null. */
  retention_grace_until: Date | null;
}

/** Columns to change. */
export type BillingPatch = Partial<BillingRow>;

/** The decision for one effect: the outcome and, when it is `applied`, the change. */
export interface Decision {
  outcome: Outcome;
  patch?: BillingPatch;
}

/** Statuses under which the paid tier's limit applies. */
const PAID_ACCESS = new Set(["active", "trialing", "past_due"]);
/** Terminal statuses: the subscription will never bill again. */
const ENDED = new Set(["canceled", "incomplete_expired"]);

const olderThanApplied = (row: BillingRow, created: number) => row.last_event_created !== null && created < row.last_event_created;

/** `checkout.session.completed`: links the customer and subscription to the project. */
export function decideCheckout(row: BillingRow, effect: CheckoutCompleted, created: number): Decision {
  if (olderThanApplied(row, created)) return { outcome: "stale" };
  return {
    outcome: "applied",
    patch: {
      payment_customer_id: effect.customerId ?? row.payment_customer_id,
      payment_subscription_id: effect.subscriptionId ?? row.payment_subscription_id,
      last_event_created: created,
    },
  };
}

/**
 * A subscription's state. `created` is the event's creation time; `current` marks a state
 * read back from the API (applies regardless of event order).
 */
export function decideSubscription(row: BillingRow, effect: SubscriptionState, created: number, current = false): Decision {
  if (!current && olderThanApplied(row, created)) return { outcome: "stale" };
  const lastEvent = Math.max(created, row.last_event_created ?? 0);
  const ended = effect.deleted || ENDED.has(effect.status);
  const replaced = row.payment_subscription_id !== null && row.payment_subscription_id !== effect.subscriptionId;
  if (ended) {
    // The end of a subscription the project no longer uses changes nothing.
    if (replaced) return { outcome: "stale" };
    // Not linked (yet): only remember the time, so its older `created` arriving late is stale.
    if (row.payment_subscription_id === null) return { outcome: "applied", patch: { last_event_created: lastEvent } };
    return {
      outcome: "applied",
      patch: { ...withTier(row, "free", created), status: effect.status, payment_subscription_id: null, last_event_created: lastEvent },
    };
  }
  if (effect.tier === null) return { outcome: "ignored" }; // a price that is no configured tier
  return {
    outcome: "applied",
    patch: {
      ...withTier(row, PAID_ACCESS.has(effect.status) ? effect.tier : "free", created),
      status: effect.status,
      payment_subscription_id: effect.subscriptionId,
      payment_customer_id: effect.customerId || row.payment_customer_id,
      last_event_created: lastEvent,
    },
  };
}

/** The tier `tier` and the retention grace that the change from `row.tier` to it decides, at `created` (Unix seconds). */
function withTier(row: BillingRow, tier: Tier, created: number): BillingPatch {
  return { tier, ...graceAfter(row, tier, new Date(created * 1000)) };
}

/** `invoice.paid`: a new billing period starts, with the counter at zero. */
export function decideInvoicePaid(row: BillingRow, effect: InvoicePaid, created: number): Decision {
  if (!effect.subscriptionId || !effect.period) return { outcome: "ignored" }; // not a subscription invoice
  if (row.payment_subscription_id !== null && row.payment_subscription_id !== effect.subscriptionId) return { outcome: "stale" };
  // Not linked yet: only the first billing event may link (a later one means the link was removed).
  if (row.payment_subscription_id === null && olderThanApplied(row, created)) return { outcome: "stale" };
  const start = new Date(effect.period.start * 1000);
  const end = new Date(effect.period.end * 1000);
  const after = effect.billingReason === "subscription_create" ? row.period_start_at : row.period_reset_at;
  if (end.getTime() <= after.getTime()) return { outcome: "stale" };
  // The current period already: counted when it started.
  if (start.getTime() === row.period_start_at.getTime() && end.getTime() === row.period_reset_at.getTime()) return { outcome: "stale" };
  return {
    outcome: "applied",
    patch: {
      requests_this_period: 0,
      period_start_at: start,
      period_reset_at: end,
      payment_subscription_id: effect.subscriptionId,
      payment_customer_id: row.payment_customer_id ?? effect.customerId,
    },
  };
}

/** Applies `patch` to `row` (for chaining decisions inside one event). */
export function patched(row: BillingRow, patch: BillingPatch | undefined): BillingRow {
  return patch ? { ...row, ...patch } : row;
}
