/**
 * Stripe Checkout and Billing Portal sessions as sent on the wire (API version
 * 2026-10-28.endive), typed against the `stripe` package; see ./objects.ts. No Node APIs.
 */
import type Stripe from "stripe";
import { stripeId, unixNow } from "./objects.ts";

/** Options of `checkoutSessionObject`. */
export interface CheckoutSessionOptions {
  id?: string;
  /** Where the hosted page is served (the stand-in serves `<base>/c/pay/<id>`). */
  pageBase: string;
  customer: string | null;
  clientReferenceId: string | null;
  successUrl: string;
  cancelUrl: string | null;
  metadata?: Record<string, string>;
  amountTotal: number;
  currency?: string;
  /** `open` when created, `complete` once paid (then `subscription` and `invoice` are set). */
  status?: "open" | "complete" | "expired";
  subscription?: string | null;
  invoice?: string | null;
  created?: number;
}

/** A subscription-mode Checkout Session. */
export function checkoutSessionObject(p: CheckoutSessionOptions): Stripe.Checkout.Session {
  const id = p.id ?? stripeId("cs_test");
  const created = p.created ?? unixNow();
  const status = p.status ?? "open";
  const complete = status === "complete";
  return {
    id,
    object: "checkout.session",
    adaptive_pricing: { enabled: true },
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: p.amountTotal,
    amount_total: p.amountTotal,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: p.cancelUrl,
    client_reference_id: p.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created,
    currency: p.currency ?? "usd",
    currency_conversion: null,
    custom_fields: [],
    custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
    customer: p.customer,
    customer_account: null,
    customer_creation: p.customer ? null : "always",
    customer_details: complete
      ? { address: null, business_name: null, email: "customer@example.com", individual_name: null, name: null, phone: null, tax_exempt: "none", tax_ids: [] }
      : null,
    customer_email: null,
    discounts: [],
    expires_at: created + 24 * 3600,
    integration_identifier: null,
    invoice: complete ? (p.invoice ?? null) : null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata: p.metadata ?? {},
    mode: "subscription",
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: "always",
    payment_method_configuration_details: null,
    payment_method_options: { card: { request_three_d_secure: "automatic" } },
    payment_method_types: ["card"],
    payment_status: complete ? "paid" : "unpaid",
    permissions: null,
    phone_number_collection: { enabled: false },
    recovered_from: null,
    saved_payment_method_options: { allow_redisplay_filters: ["always"], payment_method_remove: "disabled", payment_method_save: null },
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status,
    submit_type: null,
    subscription: complete ? (p.subscription ?? null) : null,
    success_url: p.successUrl,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: "hosted",
    url: complete ? null : `${p.pageBase}/c/pay/${id}`,
    wallet_options: null,
  };
}

/** A Billing Portal session for `customer`. */
export function portalSessionObject(p: { pageBase: string; customer: string; returnUrl: string | null; id?: string }): Stripe.BillingPortal.Session {
  const id = p.id ?? stripeId("bps");
  return {
    id,
    object: "billing_portal.session",
    configuration: "bpc_standin_default",
    created: unixNow(),
    customer: p.customer,
    customer_account: null,
    flow: null,
    livemode: false,
    locale: null,
    on_behalf_of: null,
    return_url: p.returnUrl,
    url: `${p.pageBase}/p/session/${id}`,
  };
}
