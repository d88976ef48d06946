/**
 * Billing test helpers (workerd): signing and posting webhook events the way Stripe does,
 * realistic event payloads (packages/stripe-stand-in builders), the local Stripe stand-in's
 * control routes, and whole-table snapshots for "nothing changed" checks.
 */
import Stripe from "stripe";
import { eventObject, invoiceObject, type EventObjects } from "@sightline/stripe-stand-in/events";
import { priceObject, stripeId, subscriptionObject, unixNow, type SubscriptionOptions } from "@sightline/stripe-stand-in/objects";
import { checkoutSessionObject } from "@sightline/stripe-stand-in/sessions";
import type { RecordedRequest } from "@sightline/stripe-stand-in";
import { createStripeClient } from "../../src/billing/stripe";
import { TEST_PRICES, TEST_RETURN_ORIGIN, TEST_STRIPE_SECRET_KEY, TEST_WEBHOOK_SECRET } from "../setup/stripe-constants";
import { api, sql, testEnv } from "./helpers";

export { TEST_PRICES, TEST_RETURN_ORIGIN, TEST_WEBHOOK_SECRET };

/** The stand-in's base URL (the `STRIPE_API_BASE` binding). */
export const standInUrl = () => (testEnv as unknown as { STRIPE_API_BASE: string }).STRIPE_API_BASE;

/** A `stripe` client of the stand-in, as the API worker builds it (test key, fetch client). */
export const stripe = () => createStripeClient({ secretKey: TEST_STRIPE_SECRET_KEY, apiBase: standInUrl() })!;

/** Calls a stand-in control route (`/__stand-in/...`) and returns its JSON. */
export async function standIn<T = unknown>(path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${standInUrl()}/__stand-in${path}`, body === undefined ? {} : { method: "POST", body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`stand-in ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** The API requests the stand-in received whose parameters mention `text` (e.g. a project id). */
export async function stripeRequests(text: string): Promise<RecordedRequest[]> {
  const all = await standIn<RecordedRequest[]>("/requests");
  return all.filter((r) => JSON.stringify(r).includes(text));
}

const crypto = Stripe.createSubtleCryptoProvider();

/** Options of `postWebhook`. */
export interface PostOptions {
  secret?: string;
  /** Unix seconds of the signature; default now. */
  timestamp?: number;
  /** Header carrying the signature; null sends none. */
  header?: "Stripe-Signature" | "Provider-Signature" | null;
  /** Sent instead of the signed payload (to tamper with it). */
  body?: string;
}

/** Signs `payload` with Stripe's scheme and posts it to /webhook/payment. */
export async function postWebhook(payload: Stripe.Event | string, opts: PostOptions = {}): Promise<Response> {
  const text = typeof payload === "string" ? payload : JSON.stringify(payload, null, 2);
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload: text,
    secret: opts.secret ?? TEST_WEBHOOK_SECRET,
    timestamp: opts.timestamp ?? unixNow(),
    cryptoProvider: crypto,
  });
  const headers: Record<string, string> = { "Content-Type": "application/json; charset=utf-8" };
  const header = opts.header === undefined ? "Stripe-Signature" : opts.header;
  if (header) headers[header] = signature;
  return api("/webhook/payment", { method: "POST", headers, body: opts.body ?? text });
}

/** Posts a signed event and returns status and body. */
export async function sendEvent(
  event: Stripe.Event,
  opts: PostOptions = {},
): Promise<{ status: number; body: { received?: true; outcome?: string; detail?: string } }> {
  const res = await postWebhook(event, opts);
  return { status: res.status, body: (await res.json()) as { received?: true; outcome?: string; detail?: string } };
}

/** An event of `type` around `object`, created at `created` (Unix seconds). */
export function event<K extends keyof EventObjects>(type: K, object: EventObjects[K], created = unixNow(), previous?: Partial<EventObjects[K]>): Stripe.Event {
  return eventObject(type, object, { created, ...(previous ? { previousAttributes: previous } : {}) });
}

/** The stand-in's price object for a tier (same ids and amounts as test/setup/stripe.ts). */
export function price(tier: keyof typeof TEST_PRICES | "other"): Stripe.Price {
  const amounts = { pro: 4900, team: 19900, enterprise: 99900, other: 500 };
  return priceObject({ id: tier === "other" ? "price_test_other_product" : TEST_PRICES[tier], unitAmount: amounts[tier], nickname: tier });
}

/** A subscription to `tier` for `customer`. */
export function subscription(tier: keyof typeof TEST_PRICES | "other", opts: Omit<SubscriptionOptions, "price">): Stripe.Subscription {
  return subscriptionObject({ ...opts, price: price(tier) });
}

/** A paid invoice of `sub` (first invoice unless `billingReason` says otherwise). */
export function paidInvoice(
  sub: Stripe.Subscription,
  opts: { billingReason?: Stripe.Invoice.BillingReason; periodStart?: number; periodEnd?: number; status?: "paid" | "open" } = {},
) {
  return invoiceObject({ customer: String(sub.customer), subscription: sub, ...opts });
}

/** A completed subscription checkout session of `projectId`. */
export function completedSession(projectId: string, customer: string, subscriptionId: string): Stripe.Checkout.Session {
  return checkoutSessionObject({
    pageBase: standInUrl(),
    customer,
    clientReferenceId: projectId,
    successUrl: `${TEST_RETURN_ORIGIN}/billing/success`,
    cancelUrl: `${TEST_RETURN_ORIGIN}/billing`,
    metadata: { project_id: projectId, tier: "pro" },
    amountTotal: 4900,
    status: "complete",
    subscription: subscriptionId,
    invoice: stripeId("in"),
  });
}

/** Links a fresh Stripe customer id to the project (as a checkout would) and returns it. */
export async function linkCustomer(projectId: string): Promise<string> {
  const customer = stripeId("cus");
  await sql("UPDATE subscriptions SET payment_customer_id = $2 WHERE project_id = $1", [projectId, customer]);
  return customer;
}

/** The project's subscription row. */
export async function subscriptionRow(projectId: string) {
  const [row] = await sql<{
    tier: string;
    status: string;
    payment_customer_id: string | null;
    payment_subscription_id: string | null;
    requests_this_period: string;
    period_start_at: Date;
    period_reset_at: Date;
    last_event_created: string | null;
  }>("SELECT * FROM subscriptions WHERE project_id = $1", [projectId]);
  return row!;
}

/** The recorded webhook event, or undefined. */
export async function eventRow(eventId: string) {
  const [row] = await sql<{ id: string; type: string; outcome: string; project_id: string | null; object_id: string | null }>(
    "SELECT id, type, outcome, project_id, object_id FROM webhook_events WHERE id = $1",
    [eventId],
  );
  return row;
}

/** Every row of the tables billing writes, as JSON text (for before/after comparisons). */
export async function billingTables(): Promise<string> {
  const tables = await Promise.all(
    ["SELECT * FROM projects ORDER BY id", "SELECT * FROM subscriptions ORDER BY project_id", "SELECT * FROM webhook_events ORDER BY id"].map((q) => sql(q)),
  );
  return JSON.stringify(tables);
}

/** The project's subscription as the API reports it. */
export async function apiSubscription(key: string) {
  const res = await api("/api/billing/subscription", { headers: { "X-Service-Key": key } });
  return (await res.json()) as {
    tier: string;
    limit: number | null;
    status: string;
    requests_this_period: number;
    period_reset_at: string;
    payment_subscription_id: string | null;
  };
}
