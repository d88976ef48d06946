/**
 * Stripe invoices and event envelopes as sent on the wire (API version 2026-10-28.endive),
 * typed against the `stripe` package; see ./objects.ts. No Node APIs.
 */
import type Stripe from "stripe";
import { API_VERSION, list, stripeId, unixNow } from "./objects.ts";

/** Options of `invoiceObject`. */
export interface InvoiceOptions {
  id?: string;
  customer: string;
  subscription: Stripe.Subscription;
  /** `subscription_create` for the first invoice, `subscription_cycle` for a renewal. */
  billingReason?: Stripe.Invoice.BillingReason;
  /** Service period paid for, Unix seconds; default the subscription item's current period. */
  periodStart?: number;
  periodEnd?: number;
  /** `paid` (invoice.paid) or `open` with a failed attempt (invoice.payment_failed). */
  status?: "paid" | "open";
  created?: number;
}

/** A subscription invoice with one line for the subscription's item, paid or open. */
export function invoiceObject(p: InvoiceOptions): Stripe.Invoice {
  const id = p.id ?? stripeId("in");
  const item = p.subscription.items.data[0]!;
  const created = p.created ?? unixNow();
  const start = p.periodStart ?? item.current_period_start;
  const end = p.periodEnd ?? item.current_period_end;
  const amount = item.price.unit_amount ?? 0;
  const paid = (p.status ?? "paid") === "paid";
  const line: Stripe.InvoiceLineItem = {
    id: stripeId("il"),
    object: "line_item",
    amount,
    currency: item.price.currency,
    description: `1 × ${item.price.nickname ?? item.price.id} (at $${(amount / 100).toFixed(2)} / month)`,
    discount_amounts: [],
    discountable: true,
    discounts: [],
    invoice: id,
    livemode: false,
    metadata: {},
    parent: {
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: null,
        proration: false,
        proration_details: { credited_items: null },
        subscription: p.subscription.id,
        subscription_item: item.id,
      },
      type: "subscription_item_details",
    },
    period: { end, start },
    pretax_credit_amounts: [],
    pricing: {
      price_details: { price: item.price.id, product: String(item.price.product) },
      type: "price_details",
      unit_amount_decimal: item.price.unit_amount_decimal,
    },
    quantity: 1,
    quantity_decimal: "1" as unknown as Stripe.Decimal,
    subscription: p.subscription.id,
    subtotal: amount,
    taxes: [],
  };
  return {
    id,
    object: "invoice",
    account_country: "US",
    account_name: "Sightline (stand-in)",
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: paid ? amount : 0,
    amount_remaining: paid ? 0 : amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 1,
    attempted: true,
    auto_advance: !paid,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: p.billingReason ?? "subscription_create",
    collection_method: "charge_automatically",
    created,
    currency: item.price.currency,
    custom_fields: null,
    customer: p.customer,
    customer_account: null,
    customer_address: null,
    customer_email: null,
    customer_name: null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: "none",
    customer_tax_ids: [],
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: `https://invoice.stripe.com/i/acct_standin/test_${id}`,
    invoice_pdf: `https://pay.stripe.com/invoice/acct_standin/test_${id}/pdf`,
    issuer: { type: "self" },
    last_finalization_error: null,
    latest_revision: null,
    lines: list([line], `/v1/invoices/${id}/lines`),
    livemode: false,
    metadata: {},
    next_payment_attempt: paid ? null : created + 3 * 86_400,
    number: `STANDIN-${id.slice(-6).toUpperCase()}`,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: { metadata: p.subscription.metadata, subscription: p.subscription.id },
      type: "subscription_details",
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    // For a subscription's invoices these are the moment items were gathered, not the service period.
    period_end: created,
    period_start: created,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: paid ? "paid" : "open",
    status_transitions: { finalized_at: created, marked_uncollectible_at: null, paid_at: paid ? created : null, voided_at: null },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
}

/** Event types with their data object, for the events the stand-in and the tests send. */
export interface EventObjects {
  "checkout.session.completed": Stripe.Checkout.Session;
  "customer.subscription.created": Stripe.Subscription;
  "customer.subscription.updated": Stripe.Subscription;
  "customer.subscription.deleted": Stripe.Subscription;
  "invoice.paid": Stripe.Invoice;
  "invoice.payment_failed": Stripe.Invoice;
  "customer.created": Stripe.Customer;
}

/** Options of `eventObject`. */
export interface EventOptions<T> {
  id?: string;
  /** Unix seconds; default now. */
  created?: number;
  /** For `*.updated`: the changed fields' previous values. */
  previousAttributes?: Partial<T>;
}

/** A snapshot event envelope around `object`, as delivered to a webhook endpoint. */
export function eventObject<K extends keyof EventObjects>(type: K, object: EventObjects[K], opts: EventOptions<EventObjects[K]> = {}): Stripe.Event {
  const event = {
    id: opts.id ?? stripeId("evt"),
    object: "event" as const,
    api_version: API_VERSION,
    created: opts.created ?? unixNow(),
    data: { object, ...(opts.previousAttributes ? { previous_attributes: opts.previousAttributes } : {}) },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
  return event as unknown as Stripe.Event;
}
