/**
 * The stand-in's API as the `stripe` library sees it: objects, errors and idempotency on the
 * wire, and checkout completion delivering events that the library's own signature check accepts.
 */
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StripeStandIn } from "../src/server.ts";
import { proAndTeamPrices } from "./prices.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const SECRET = "whsec_stand_in_package_tests";
const PRICES = proAndTeamPrices("pkg");

let standIn: StripeStandIn;
let receiver: Receiver;
let stripe: Stripe;

beforeAll(async () => {
  receiver = await startReceiver(SECRET);
  standIn = await startStripeStandIn({ prices: PRICES, webhook: { url: receiver.url, secret: SECRET } });
  const api = new URL(standIn.url);
  stripe = new Stripe("sk_test_pkg", { host: api.hostname, port: Number(api.port), protocol: "http", maxNetworkRetries: 0 });
});

afterAll(async () => {
  await standIn.close();
  receiver.server.close();
});

describe("stripe stand-in API", () => {
  it("creates and retrieves customers; an unknown one is resource_missing", async () => {
    const created = await stripe.customers.create({ name: "Acme", metadata: { project_id: "p1" } });
    expect(created.id).toMatch(/^cus_/);
    const again = await stripe.customers.retrieve(created.id);
    expect(again).toMatchObject({ id: created.id, name: "Acme", metadata: { project_id: "p1" } });
    const missing = await stripe.customers.retrieve("cus_nope").catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(missing).toMatchObject({ code: "resource_missing", statusCode: 404 });
  });

  it("replays an idempotent request and refuses the key with other parameters", async () => {
    const a = await stripe.customers.create({ name: "Once" }, { idempotencyKey: "pkg-key-1" });
    const b = await stripe.customers.create({ name: "Once" }, { idempotencyKey: "pkg-key-1" });
    expect(b.id).toBe(a.id);
    const clash = await stripe.customers.create({ name: "Other" }, { idempotencyKey: "pkg-key-1" }).catch((err: unknown) => err);
    expect(clash).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
  });

  it("refuses a request without a test key", async () => {
    const res = await fetch(`${standIn.url}/v1/customers`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
  });

  it("completing checkout delivers the three signed events Stripe sends", async () => {
    const customer = await stripe.customers.create({ name: "Payer" });
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer: customer.id,
      line_items: [{ price: "price_pkg_pro", quantity: 1 }],
      success_url: "https://app.example/billing?s={CHECKOUT_SESSION_ID}",
      metadata: { project_id: "p1" },
    });
    expect(session.url).toBe(`${standIn.url}/c/pay/${session.id}`);
    const before = receiver.events.length;
    const pay = await fetch(session.url!, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(303);
    expect(pay.headers.get("location")).toBe(`https://app.example/billing?s=${session.id}`);
    const types = receiver.events.slice(before).map((e) => e.type);
    expect(types).toEqual(["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);
    const done = await stripe.checkout.sessions.retrieve(session.id);
    expect(done).toMatchObject({ status: "complete", payment_status: "paid", customer: customer.id });
    const sub = await stripe.subscriptions.retrieve(String(done.subscription));
    expect(sub.items.data[0]!.price.id).toBe("price_pkg_pro");
  });

  it("expires an open checkout session (POST /v1/checkout/sessions/:id/expire), which can no longer be paid or expired", async () => {
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      line_items: [{ price: "price_pkg_pro", quantity: 1 }],
      success_url: "https://app.example/billing",
    });
    const expired = await stripe.checkout.sessions.expire(session.id);
    expect(expired).toMatchObject({ id: session.id, object: "checkout.session", status: "expired", url: null });
    expect(await stripe.checkout.sessions.retrieve(session.id)).toMatchObject({ status: "expired" });
    const pay = await fetch(session.url!, { method: "POST", redirect: "manual" });
    expect(pay.status).toBe(400);
    const again = await stripe.checkout.sessions.expire(session.id).catch((err: unknown) => err);
    expect(again).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(again).toMatchObject({ statusCode: 400, message: 'Only Checkout Sessions with a status in ["open"] can be expired.' });
    const missing = await stripe.checkout.sessions.expire("cs_test_nope").catch((err: unknown) => err);
    expect(missing).toMatchObject({ code: "resource_missing", statusCode: 404 });
  });
});
