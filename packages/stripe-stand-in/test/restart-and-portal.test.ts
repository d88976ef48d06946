/**
 * The stand-in across a restart (its objects kept in the state file, so a customer the API
 * stored is still known) and its Billing Portal page: plan change and cancellation send the
 * signed events Stripe would, verified with the stripe library.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeStandIn, type StandInOptions } from "../src/server.ts";
import { proAndTeamPrices } from "./prices.ts";
import { startReceiver, type Receiver } from "./receiver.ts";

const SECRET = "whsec_stand_in_portal_tests";
const PRICES = proAndTeamPrices("rp");

let dir: string;
let receiver: Receiver;
let events: Stripe.Event[];
let webhookUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "stand-in-"));
  receiver = await startReceiver(SECRET);
  events = receiver.events;
  webhookUrl = receiver.url;
});

afterAll(() => {
  receiver.server.close();
  rmSync(dir, { recursive: true, force: true });
});

const clientFor = (url: string) => {
  const api = new URL(url);
  return new Stripe("sk_test_rp", { host: api.hostname, port: Number(api.port), protocol: "http", maxNetworkRetries: 0 });
};
const start = (extra: Partial<StandInOptions> = {}) => startStripeStandIn({ prices: PRICES, webhook: { url: webhookUrl, secret: SECRET }, ...extra });

/** Creates a customer and pays a checkout for `price`; returns the customer and subscription ids. */
async function subscribe(url: string, price: string): Promise<{ customer: string; subscription: string }> {
  const stripe = clientFor(url);
  const customer = await stripe.customers.create({ name: "Portal user" });
  const session = await stripe.checkout.sessions.create({
    mode: "subscription",
    customer: customer.id,
    line_items: [{ price, quantity: 1 }],
    success_url: "https://app.example/billing",
  });
  await fetch(session.url!, { method: "POST", redirect: "manual" });
  const done = await stripe.checkout.sessions.retrieve(session.id);
  return { customer: customer.id, subscription: String(done.subscription) };
}

describe("stripe stand-in state file", () => {
  it("Should know customers, subscriptions and idempotent replies after a restart", async () => {
    const stateFile = join(dir, "state.json");
    const first = await start({ stateFile });
    const { customer, subscription } = await subscribe(first.url, "price_rp_pro");
    const keyed = await clientFor(first.url).customers.create({ name: "keyed" }, { idempotencyKey: "rp-key" });
    await first.close();

    const second = await start({ stateFile, port: Number(new URL(first.url).port) });
    const stripe = clientFor(second.url);
    expect((await stripe.customers.retrieve(customer)).id).toBe(customer);
    expect((await stripe.subscriptions.retrieve(subscription)).items.data[0]!.price.id).toBe("price_rp_pro");
    expect((await stripe.customers.create({ name: "keyed" }, { idempotencyKey: "rp-key" })).id).toBe(keyed.id);
    const session = await stripe.checkout.sessions.create({
      mode: "subscription",
      customer,
      line_items: [{ price: "price_rp_team", quantity: 1 }],
      success_url: "https://app.example/billing",
    });
    expect(session.url).toMatch(/\/c\/pay\/cs_test_/);
    await second.close();
  });

  it("Should forget everything without a state file (resource_missing, as the API then recovers from)", async () => {
    const first = await start();
    const { customer } = await subscribe(first.url, "price_rp_pro");
    await first.close();
    const second = await start({ port: Number(new URL(first.url).port) });
    const err = await clientFor(second.url)
      .billingPortal.sessions.create({ customer })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "resource_missing", param: "customer" });
    await second.close();
  });
});

describe("stripe stand-in billing portal", () => {
  it("Should show the plan, switch it and cancel it, sending signed subscription events, and link back", async () => {
    const standIn = await start();
    const { customer, subscription } = await subscribe(standIn.url, "price_rp_pro");
    const portal = await clientFor(standIn.url).billingPortal.sessions.create({ customer, return_url: "https://app.example/billing" });
    const page = await fetch(portal.url);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain("Current plan: <span data-plan>Pro</span>");
    expect(html).toContain("Switch to Team ($199.00 / month)");
    expect(html).toContain('<a href="https://app.example/billing">Return to Sightline</a>');

    const before = events.length;
    const form = (fields: Record<string, string>) => ({ method: "POST", body: new URLSearchParams(fields), redirect: "manual" as const });
    const switched = await fetch(`${portal.url}/update`, form({ subscription, price: "price_rp_team" }));
    expect(switched.status).toBe(303);
    const updated = events.slice(before);
    expect(updated.map((e) => e.type)).toEqual(["customer.subscription.updated"]);
    expect((updated[0]!.data.object as Stripe.Subscription).items.data[0]!.price.id).toBe("price_rp_team");
    const after = await (await fetch(new URL(switched.headers.get("location")!, standIn.url))).text();
    expect(after).toContain("Your plan is now Team.");
    expect(after).toContain("Current plan: <span data-plan>Team</span>");

    const canceled = await fetch(`${portal.url}/cancel`, form({ subscription }));
    expect(canceled.status).toBe(303);
    expect(events.slice(before + 1).map((e) => e.type)).toEqual(["customer.subscription.deleted"]);
    expect(await (await fetch(portal.url)).text()).toContain("No active subscription.");

    // Another customer's subscription cannot be changed through this session; unknown sessions are a 404 page.
    const other = await subscribe(standIn.url, "price_rp_pro");
    expect((await fetch(`${portal.url}/cancel`, form({ subscription: other.subscription }))).status).toBe(404);
    expect((await fetch(`${standIn.url}/p/session/bps_nope`)).status).toBe(404);
    await standIn.close();
  });
});
