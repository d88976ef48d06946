/**
 * Reads Stripe webhook events into billing effects: the few facts Sightline acts on, in the
 * object shapes of the API version the `stripe` package pins (2026-10-28.endive). Pure: no I/O.
 *
 * Where the facts live in that API version:
 * - a subscription's prices are `items.data[].price.id` and its billing period is per item,
 *   `items.data[].current_period_start|end` (moved off the subscription in 2025-03-31.basil:
 *   https://docs.stripe.com/changelog/basil/2025-03-31/deprecate-subscription-current-period-start-and-end);
 * - an invoice names its subscription in `parent.subscription_details.subscription`, and each
 *   line names its own in `parent.subscription_item_details.subscription` (the top-level
 *   `invoice.subscription` went away in basil:
 *   https://docs.stripe.com/changelog/basil/2025-03-31/adds-new-parent-field-to-invoicing-objects);
 * - the service period an invoice pays for is its lines' `period.start|end`: `invoice.period_end`
 *   is only the last moment items could be added (for a subscription's first invoice it equals
 *   the creation time), see https://docs.stripe.com/api/invoices/object#invoice_object-period_end.
 */
import type Stripe from "stripe";
import type { PaidTier } from "../enums";
import { tierForPrices, type PriceTable } from "./prices";
import { isUuid } from "../util";

/** `checkout.session.completed` of a subscription-mode session. */
export interface CheckoutCompleted {
  kind: "checkout_completed";
  /** `client_reference_id`: the project that started the checkout (null if absent or not a UUID). */
  projectId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
}

/** The state of a subscription (`customer.subscription.created|updated|deleted`, or read from the API). */
export interface SubscriptionState {
  kind: "subscription_state";
  subscriptionId: string;
  customerId: string;
  /** `metadata.project_id`, set by checkout (null if absent or not a UUID). */
  projectId: string | null;
  /** Stripe status: active, trialing, past_due, unpaid, incomplete, incomplete_expired, paused, canceled. */
  status: string;
  /** Tier of the subscription's price; null when no item has a configured price. */
  tier: PaidTier | null;
  /** True for `customer.subscription.deleted`: the subscription has ended. */
  deleted: boolean;
}

/** `invoice.paid` for a subscription: a billing period was paid for. */
export interface InvoicePaid {
  kind: "invoice_paid";
  subscriptionId: string | null;
  customerId: string | null;
  /** Service period paid for, Unix seconds; null when the invoice has no subscription lines. */
  period: { start: number; end: number } | null;
  /** `billing_reason`: `subscription_create` for a subscription's first invoice. */
  billingReason: string | null;
}

/** `invoice.payment_failed`: recorded; Stripe then moves the subscription to `past_due`. */
export interface InvoicePaymentFailed {
  kind: "invoice_payment_failed";
  subscriptionId: string | null;
  customerId: string | null;
}

/** What an event means for a project's subscription row. */
export type BillingEffect = CheckoutCompleted | SubscriptionState | InvoicePaid | InvoicePaymentFailed;

/** The event types this service handles; every other type is acknowledged and ignored. */
export const HANDLED_EVENT_TYPES = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

const uuidOrNull = (v: string | null | undefined) => (isUuid(v) ? v.toLowerCase() : null);

/** The id of an expandable field (an id string or an expanded object). */
const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === "string" ? v : (v?.id ?? null));

/** Reads a subscription object (from an event or from `subscriptions.retrieve`). */
export function subscriptionState(sub: Stripe.Subscription, prices: PriceTable, deleted = false): SubscriptionState {
  return {
    kind: "subscription_state",
    subscriptionId: sub.id,
    customerId: idOf(sub.customer) ?? "",
    projectId: uuidOrNull(sub.metadata?.project_id),
    status: sub.status,
    tier: tierForPrices(
      prices,
      sub.items.data.map((item) => item.price.id),
    ),
    deleted,
  };
}

function invoiceSubscription(invoice: Stripe.Invoice): string | null {
  const fromParent = idOf(invoice.parent?.subscription_details?.subscription);
  if (fromParent) return fromParent;
  for (const line of invoice.lines?.data ?? []) {
    const id = line.parent?.subscription_item_details?.subscription ?? idOf(line.subscription);
    if (id) return id;
  }
  return null;
}

/** The service period of the invoice's subscription lines (prorations left out), or null. */
function invoicePeriod(invoice: Stripe.Invoice): { start: number; end: number } | null {
  const lines = (invoice.lines?.data ?? []).filter((l) => l.parent?.type === "subscription_item_details" && !l.parent.subscription_item_details?.proration);
  if (lines.length === 0) return null;
  return { start: Math.min(...lines.map((l) => l.period.start)), end: Math.max(...lines.map((l) => l.period.end)) };
}

function checkoutCompleted(session: Stripe.Checkout.Session): CheckoutCompleted | null {
  if (session.mode !== "subscription") return null; // one-time payments buy no tier
  return {
    kind: "checkout_completed",
    projectId: uuidOrNull(session.client_reference_id) ?? uuidOrNull(session.metadata?.project_id),
    customerId: idOf(session.customer),
    subscriptionId: idOf(session.subscription),
  };
}

/** The effect of `event`, or null for an event this service does not act on. */
export function effectOf(event: Stripe.Event, prices: PriceTable): BillingEffect | null {
  switch (event.type) {
    case "checkout.session.completed":
      return checkoutCompleted(event.data.object);
    case "customer.subscription.created":
    case "customer.subscription.updated":
      return subscriptionState(event.data.object, prices);
    case "customer.subscription.deleted":
      return subscriptionState(event.data.object, prices, true);
    case "invoice.paid": {
      const invoice = event.data.object;
      return {
        kind: "invoice_paid",
        subscriptionId: invoiceSubscription(invoice),
        customerId: idOf(invoice.customer),
        period: invoicePeriod(invoice),
        billingReason: invoice.billing_reason,
      };
    }
    case "invoice.payment_failed": {
      const invoice = event.data.object;
      return { kind: "invoice_payment_failed", subscriptionId: invoiceSubscription(invoice), customerId: idOf(invoice.customer) };
    }
    default:
      return null;
  }
}

/** The id of the event's object (`cs_...`, `sub_...`, `in_...`), or null. */
export function objectIdOf(event: Stripe.Event): string | null {
  const object = event.data?.object as { id?: unknown } | undefined;
  return typeof object?.id === "string" ? object.id : null;
}
