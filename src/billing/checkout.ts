/**
 * Starting a subscription (Stripe Checkout) and opening self-service management (Stripe
 * Billing Portal) for a project. The tier is never taken from the session later: the webhook
 * derives it from the subscription's price (./prices.ts).
 *
 * Rules:
 * - `free` is not bought: 422. The project's current tier: 409. Any other tier while the
 *   project has a subscription: 409, since a second checkout would bill a second subscription;
 *   plan changes go through the Billing Portal.
 * - One Stripe customer per project, created on first checkout (idempotency key
 *   `sightline-customer-<project>`) and kept in `payment_customer_id` for every later call.
 *   When Stripe no longer knows that customer (deleted in Stripe's dashboard, or a local
 *   stand-in that lost its state), checkout and portal create a new one (idempotency key
 *   `sightline-customer-<project>-after-<missing id>`), record it in place of the old one and
 *   go on, so a user can always pay. Its subscriptions went with the deleted customer; Stripe
 *   reports their end by webhook.
 * - The session has `client_reference_id` = project id (and `metadata.project_id` on the session
 *   and its subscription), so the webhook finds the project whichever event arrives first.
 * - One open session per project and price: the session last opened for the price is kept
 *   (table `checkout_sessions`) and read back from Stripe on the next request. It is handed back
 *   while Stripe reports it `open` and it was made for the same customer and return URLs; an
 *   open one made for other URLs is expired (`POST /v1/checkout/sessions/:id/expire`) and
 *   replaced; a completed or expired one (paid, then canceled: a customer re-subscribing) is
 *   never handed back, a new one is created. Its idempotency key is derived from the session's
 *   parameters and the id of the session it replaces (not from the clock), so a retried or
 *   concurrent identical request opens one session, and a re-subscription always gets a new one.
 *   Stripe keeps idempotency keys for at least 24 hours:
 *   https://docs.stripe.com/api/idempotent_requests
 */
import type Stripe from "stripe";
import type { Db } from "../db/driver/client";
import { getBillingAccount, lastCheckoutSession, rememberCheckoutSession, replaceCustomerId, storeCustomerId, type BillingAccount } from "../db/billing";
import { ApiError, orNotFound } from "../http/errors";
import { isPaidTier, priceForTier, type PriceTable } from "./prices";
import { isMissingCustomer, isResourceMissing, providerError } from "./stripe";
import { logWarn } from "../logger";
import type { PaidTier, Tier } from "../enums";
import { toHex } from "../util";

/** A checkout request, URLs already checked against the allowed origins. */
export interface CheckoutRequest {
  projectId: string;
  tier: Tier;
  successUrl: string;
  cancelUrl: string;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return toHex(digest);
}

/**
 * Idempotency key of a checkout session: a digest of the session's parameters (tier, price,
 * customer, URLs...) and of the id of the session it replaces (null for the first), so a repeated
 * request gets the same key until a session exists, any change of parameters a new one (Stripe
 * refuses a key reused with other parameters), and the successor of a session always a new one.
 */
async function checkoutIdempotencyKey(projectId: string, params: Stripe.Checkout.SessionCreateParams, replaces: string | null): Promise<string> {
  const digest = await sha256Hex(JSON.stringify([params, replaces]));
  return `sightline-checkout-${projectId}-${digest.slice(0, 32)}`;
}

/** The session `id` as Stripe has it now, or null when Stripe does not know it. */
async function retrieveSession(stripe: Stripe, id: string): Promise<Stripe.Checkout.Session | null> {
  try {
    return await stripe.checkout.sessions.retrieve(id);
  } catch (err) {
    if (isResourceMissing(err)) return null;
    throw err;
  }
}

/** True when `session` was made for the customer and return URLs of `params`. */
function madeFor(session: Stripe.Checkout.Session, params: Stripe.Checkout.SessionCreateParams): boolean {
  const customer = typeof session.customer === "string" ? session.customer : (session.customer?.id ?? null);
  return customer === params.customer && session.success_url === params.success_url && session.cancel_url === params.cancel_url;
}

/**
 * The project's open session for `price` made for `params`, or a new one (see the module doc):
 * reads the last session back from Stripe, expires it when it is open but made for other
 * parameters, creates and records its successor otherwise.
 */
async function openSession(
  db: Db,
  stripe: Stripe,
  projectId: string,
  price: string,
  params: Stripe.Checkout.SessionCreateParams,
): Promise<Stripe.Checkout.Session> {
  const previousId = await lastCheckoutSession(db, projectId, price);
  const previous = previousId ? await retrieveSession(stripe, previousId) : null;
  if (previous?.status === "open") {
    if (madeFor(previous, params)) return previous;
    await stripe.checkout.sessions.expire(previous.id, {}, { idempotencyKey: `sightline-checkout-expire-${previous.id}` });
  }
  const session = await stripe.checkout.sessions.create(params, { idempotencyKey: await checkoutIdempotencyKey(projectId, params, previousId) });
  await rememberCheckoutSession(db, projectId, price, session.id);
  return session;
}

async function account(db: Db, projectId: string): Promise<BillingAccount> {
  return orNotFound(await getBillingAccount(db, projectId), "project");
}

/** Refuses a checkout that would not start a new paid subscription (422/409). */
function checkTier(acc: BillingAccount, tier: Tier): asserts tier is PaidTier {
  if (!isPaidTier(tier)) throw new ApiError(422, "tier: free needs no checkout; cancel the paid subscription in the billing portal instead");
  if (acc.tier === tier) throw new ApiError(409, `the project is already on the ${tier} tier`);
  if (acc.payment_subscription_id)
    throw new ApiError(
      409,
      `the project already has a ${acc.tier} subscription (${acc.status}); change plans in the billing portal (POST /api/billing/portal)`,
    );
}

async function ensureCustomer(db: Db, stripe: Stripe, acc: BillingAccount): Promise<string> {
  if (acc.payment_customer_id) return acc.payment_customer_id;
  const customer = await stripe.customers.create(
    { name: acc.name, metadata: { project_id: acc.project_id } },
    { idempotencyKey: `sightline-customer-${acc.project_id}` },
  );
  return storeCustomerId(db, acc.project_id, customer.id);
}

/**
 * Runs `call` with the project's customer (created if it has none). When Stripe answers that
 * the customer does not exist, creates a new one, records it in place of the missing one, and
 * runs `call` once more with it.
 */
async function withCustomer<T>(db: Db, stripe: Stripe, acc: BillingAccount, call: (customer: string) => Promise<T>): Promise<T> {
  const customer = await ensureCustomer(db, stripe, acc);
  try {
    return await call(customer);
  } catch (err) {
    if (!isMissingCustomer(err)) throw err;
    const created = await stripe.customers.create(
      { name: acc.name, metadata: { project_id: acc.project_id } },
      { idempotencyKey: `sightline-customer-${acc.project_id}-after-${customer}` },
    );
    const replacement = await replaceCustomerId(db, acc.project_id, customer, created.id);
    logWarn("stripe customer missing; a new one was recorded", { project_id: acc.project_id, missing: customer, replacement });
    return call(replacement);
  }
}

/**
 * Creates a subscription-mode Checkout Session for `req.tier` and returns its id and URL.
 * Errors: 404 unknown project, 422 free or a tier with no configured price, 409 see the module
 * doc, 502/503 Stripe refused or is unreachable.
 */
export async function startCheckout(db: Db, stripe: Stripe, prices: PriceTable, req: CheckoutRequest): Promise<{ id: string; url: string }> {
  const acc = await account(db, req.projectId);
  checkTier(acc, req.tier);
  const price = priceForTier(prices, req.tier);
  if (!price) throw new ApiError(422, `tier: ${req.tier} is not sold by checkout on this deployment`);
  try {
    const session = await withCustomer(db, stripe, acc, async (customer) => {
      const params: Stripe.Checkout.SessionCreateParams = {
        mode: "subscription",
        customer,
        client_reference_id: acc.project_id,
        line_items: [{ price, quantity: 1 }],
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
        metadata: { project_id: acc.project_id, tier: req.tier },
        subscription_data: { metadata: { project_id: acc.project_id } },
      };
      return openSession(db, stripe, acc.project_id, price, params);
    });
    if (!session.url) throw new ApiError(502, "the payment provider returned a session without a URL");
    return { id: session.id, url: session.url };
  } catch (err) {
    throw providerError(err);
  }
}

/**
 * Creates a Billing Portal session for the project's customer and returns its URL.
 * Errors: 404 unknown project, 409 no customer yet (no checkout was ever started), 502/503.
 */
export async function openPortal(db: Db, stripe: Stripe, projectId: string, returnUrl: string): Promise<{ url: string }> {
  const acc = await account(db, projectId);
  if (!acc.payment_customer_id) throw new ApiError(409, "the project has no billing account yet: start a subscription with POST /api/billing/checkout");
  try {
    const session = await withCustomer(db, stripe, acc, (customer) => stripe.billingPortal.sessions.create({ customer, return_url: returnUrl }));
    return { url: session.url };
  } catch (err) {
    throw providerError(err);
  }
}
