/**
 * Stripe API objects and events as Stripe sends them on the wire, for the API version the
 * `stripe` package pins (2026-10-28.endive): every field of the object present, typed against
 * the package's own types so a field that moved or vanished fails to compile. Used by the
 * local Stripe stand-in (./server.ts) and by the workerd tests' event fixtures; no
 * Node APIs, so both runtimes can import it.
 *
 * Decimal fields (`unit_amount_decimal`, `amount_decimal`) are strings on the wire; the
 * library's type is its `Decimal` class, into which it coerces API responses.
 */
import type Stripe from "stripe";

/** The API version whose object shapes these builders follow (the stripe package's pin). */
export const API_VERSION = "2026-10-28.endive";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** A Stripe-style id: `prefix_` and 24 random base-62 characters (`cus_`, `sub_`, `evt_`...). */
export function stripeId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `${prefix}_${[...bytes].map((b) => ALPHABET[b % 62]).join("")}`;
}

/** Now, in Unix seconds. */
export const unixNow = () => Math.floor(Date.now() / 1000);

const decimal = (n: number) => String(n) as unknown as Stripe.Decimal;

/** A list object (`{object: "list", data, has_more, url}`). */
export function list<T>(data: T[], url: string): Stripe.ApiList<T> {
  return { object: "list", data, has_more: false, url };
}

/** A customer. */
export function customerObject(p: {
  id?: string;
  name?: string | null;
  email?: string | null;
  metadata?: Record<string, string>;
  created?: number;
}): Stripe.Customer {
  return {
    id: p.id ?? stripeId("cus"),
    object: "customer",
    address: null,
    balance: 0,
    created: p.created ?? unixNow(),
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: null,
    discount: null,
    email: p.email ?? null,
    invoice_prefix: stripeId("").slice(1, 9).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: p.metadata ?? {},
    name: p.name ?? null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: "none",
    test_clock: null,
  };
}

/** A monthly recurring price (licensed, per unit). */
export function priceObject(p: { id: string; unitAmount: number; nickname?: string | null; product?: string; currency?: string }): Stripe.Price {
  return {
    id: p.id,
    object: "price",
    active: true,
    billing_scheme: "per_unit",
    created: unixNow(),
    currency: p.currency ?? "usd",
    custom_unit_amount: null,
    livemode: false,
    lookup_key: null,
    metadata: {},
    nickname: p.nickname ?? null,
    product: p.product ?? `prod_${p.id.replace(/^price_/, "")}`,
    recurring: { interval: "month", interval_count: 1, meter: null, trial_period_days: null, usage_type: "licensed" },
    tax_behavior: "unspecified",
    tiers_mode: null,
    transform_quantity: null,
    type: "recurring",
    unit_amount: p.unitAmount,
    unit_amount_decimal: decimal(p.unitAmount),
  };
}

/** The legacy `plan` view of a recurring price, still sent on subscription items. */
export function planOf(price: Stripe.Price): Stripe.Plan {
  return {
    id: price.id,
    object: "plan",
    active: price.active,
    amount: price.unit_amount,
    amount_decimal: price.unit_amount_decimal,
    billing_scheme: price.billing_scheme,
    created: price.created,
    currency: price.currency,
    interval: price.recurring?.interval ?? "month",
    interval_count: price.recurring?.interval_count ?? 1,
    livemode: false,
    metadata: {},
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: "licensed",
  };
}

/** Adds one calendar month (Stripe's monthly interval) to Unix seconds `t`. */
export function plusOneMonth(t: number): number {
  const d = new Date(t * 1000);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return Math.floor(d.getTime() / 1000);
}

/** Options of `subscriptionObject`. */
export interface SubscriptionOptions {
  id?: string;
  customer: string;
  price: Stripe.Price;
  status?: Stripe.Subscription.Status;
  metadata?: Record<string, string>;
  /** Unix seconds; default now. */
  created?: number;
  /** Current period of the item, Unix seconds; default [created, created + 1 month). */
  periodStart?: number;
  periodEnd?: number;
  canceledAt?: number | null;
  latestInvoice?: string | null;
}

/** A subscription with one item (quantity 1); its billing period lives on the item. */
export function subscriptionObject(p: SubscriptionOptions): Stripe.Subscription {
  const id = p.id ?? stripeId("sub");
  const created = p.created ?? unixNow();
  const periodStart = p.periodStart ?? created;
  const periodEnd = p.periodEnd ?? plusOneMonth(periodStart);
  const status = p.status ?? "active";
  const ended = status === "canceled" || status === "incomplete_expired";
  const item: Stripe.SubscriptionItem = {
    id: stripeId("si"),
    object: "subscription_item",
    billing_thresholds: null,
    created,
    current_period_end: periodEnd,
    current_period_start: periodStart,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(p.price),
    price: p.price,
    quantity: 1,
    subscription: id,
    tax_rates: [],
  };
  return {
    id,
    object: "subscription",
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: periodStart,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: { proration_discounts: "included" }, type: "flexible", updated_at: created },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: ended ? (p.canceledAt ?? unixNow()) : null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: ended ? "cancellation_requested" : null },
    collection_method: "charge_automatically",
    created,
    currency: p.price.currency,
    customer: p.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: stripeId("pm"),
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: ended ? (p.canceledAt ?? unixNow()) : null,
    invoice_settings: { account_tax_ids: null, custom_fields: null, description: null, footer: null, issuer: { type: "self" } },
    items: list([item], `/v1/subscription_items?subscription=${id}`),
    latest_invoice: p.latestInvoice ?? null,
    livemode: false,
    managed_payments: null,
    metadata: p.metadata ?? {},
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: "off" },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: created,
    status,
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: { end_behavior: { billing_cycle_anchor: null, missing_payment_method: "create_invoice" } },
    trial_start: null,
  };
}
