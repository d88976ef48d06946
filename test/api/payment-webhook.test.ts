import { describe, expect, it } from "vitest";
import { stripeId, unixNow } from "@sightline/stripe-stand-in/objects";
import type Stripe from "stripe";
import { api, newProject, sql } from "./helpers";
import {
  apiSubscription,
  completedSession,
  event,
  eventRow,
  linkCustomer,
  paidInvoice,
  postWebhook,
  sendEvent,
  standIn,
  subscription,
  subscriptionRow,
  TEST_RETURN_ORIGIN,
} from "./stripe-helpers";

/** A project whose checkout created `customer` at Stripe (and no subscription yet). */
async function subscribedProject() {
  const project = await newProject();
  const customer = await linkCustomer(project.projectId);
  return { ...project, customer };
}

describe("POST /webhook/payment: events", () => {
  it("Should link a completed checkout and apply the subscription read back from Stripe", async () => {
    const { key, projectId } = await newProject();
    const checkout = await api("/api/billing/checkout", {
      method: "POST",
      headers: { "X-Service-Key": key },
      json: { tier: "pro", success_url: `${TEST_RETURN_ORIGIN}/ok`, cancel_url: `${TEST_RETURN_ORIGIN}/no` },
    });
    const { id } = (await checkout.json()) as { id: string };
    // The stand-in pays the session like a customer would and hands back Stripe's three events.
    const paid = await standIn<{ events: Stripe.Event[]; subscription: Stripe.Subscription }>(`/checkout/sessions/${id}/complete`, {});
    expect(paid.events.map((e) => e.type)).toEqual(["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);

    const completed = await sendEvent(paid.events[0]!);
    expect(completed).toEqual({ status: 200, body: { received: true, outcome: "applied" } });
    const row = await subscriptionRow(projectId);
    expect(row).toMatchObject({ tier: "pro", status: "active", payment_subscription_id: paid.subscription.id });
    expect(await eventRow(paid.events[0]!.id)).toEqual({
      id: paid.events[0]!.id,
      type: "checkout.session.completed",
      outcome: "applied",
      project_id: projectId,
      object_id: id,
    });
    expect((await apiSubscription(key)).limit).toBe(500_000);

    expect((await sendEvent(paid.events[1]!)).body.outcome).toBe("applied");
    expect((await sendEvent(paid.events[2]!)).body.outcome).toBe("applied");
    const after = await subscriptionRow(projectId);
    expect(after.tier).toBe("pro");
    expect(after.period_reset_at.getTime()).toBe(paid.subscription.items.data[0]!.current_period_end * 1000);
  });

  it("Should only link on checkout.session.completed when Stripe does not know the subscription", async () => {
    const { projectId } = await newProject();
    const customer = stripeId("cus");
    const sub = stripeId("sub");
    const res = await sendEvent(event("checkout.session.completed", completedSession(projectId, customer, sub)));
    expect(res.body.outcome).toBe("applied");
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "free", payment_customer_id: customer, payment_subscription_id: sub });
  });

  it("Should set the tier from the price on customer.subscription.created and .updated", async () => {
    const { key, projectId, customer } = await subscribedProject();
    const sub = subscription("pro", { customer, metadata: { project_id: projectId } });
    const t = unixNow();
    expect((await sendEvent(event("customer.subscription.created", sub, t))).body.outcome).toBe("applied");
    expect(await apiSubscription(key)).toMatchObject({ tier: "pro", limit: 500_000, status: "active", payment_subscription_id: sub.id });

    const team = subscription("team", { id: sub.id, customer, metadata: { project_id: projectId } });
    expect(await sendEvent(event("customer.subscription.updated", team, t + 1, { items: sub.items }))).toEqual({
      status: 200,
      body: { received: true, outcome: "applied" },
    });
    expect(await apiSubscription(key)).toMatchObject({ tier: "team", limit: 5_000_000 });
    expect(Number((await subscriptionRow(projectId)).last_event_created)).toBe(t + 1);
  });

  it("Should keep the tier while past_due, fall back to free while unpaid, and restore it when active", async () => {
    const { key, customer } = await subscribedProject();
    const t = unixNow();
    const at = (status: Stripe.Subscription.Status) => subscription("pro", { id: "sub_dunning_" + customer, customer, status });
    await sendEvent(event("customer.subscription.created", at("active"), t));
    await sendEvent(event("customer.subscription.updated", at("past_due"), t + 1));
    expect(await apiSubscription(key)).toMatchObject({ tier: "pro", status: "past_due" });
    await sendEvent(event("customer.subscription.updated", at("unpaid"), t + 2));
    expect(await apiSubscription(key)).toMatchObject({ tier: "free", status: "unpaid", limit: 50, payment_subscription_id: "sub_dunning_" + customer });
    await sendEvent(event("customer.subscription.updated", at("active"), t + 3));
    expect(await apiSubscription(key)).toMatchObject({ tier: "pro", status: "active" });
  });

  it("Should move the project back to free on customer.subscription.deleted, keeping the customer", async () => {
    const { key, projectId, customer } = await subscribedProject();
    const sub = subscription("team", { customer });
    const t = unixNow();
    await sendEvent(event("customer.subscription.created", sub, t));
    const canceled = subscription("team", { id: sub.id, customer, status: "canceled" });
    expect((await sendEvent(event("customer.subscription.deleted", canceled, t + 5))).body.outcome).toBe("applied");
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "free", status: "canceled", payment_customer_id: customer, payment_subscription_id: null });
    expect((await apiSubscription(key)).limit).toBe(50);
  });

  it("Should start a new period on invoice.paid: counter to zero, reset at the line's period end", async () => {
    const { projectId, customer } = await subscribedProject();
    const start = unixNow() - 60;
    const sub = subscription("pro", { customer, periodStart: start });
    await sendEvent(event("customer.subscription.created", sub));
    await sql("UPDATE subscriptions SET requests_this_period = 1234 WHERE project_id = $1", [projectId]);
    const invoice = paidInvoice(sub);
    expect((await sendEvent(event("invoice.paid", invoice))).body.outcome).toBe("applied");
    const row = await subscriptionRow(projectId);
    expect(Number(row.requests_this_period)).toBe(0);
    expect(row.period_start_at.getTime()).toBe(start * 1000);
    expect(row.period_reset_at.getTime()).toBe(sub.items.data[0]!.current_period_end * 1000);

    // The renewal a month later: the next period.
    const next = sub.items.data[0]!.current_period_end;
    await sql("UPDATE subscriptions SET requests_this_period = 77 WHERE project_id = $1", [projectId]);
    const renewal = paidInvoice(sub, { billingReason: "subscription_cycle", periodStart: next, periodEnd: next + 30 * 86_400 });
    expect((await sendEvent(event("invoice.paid", renewal))).body.outcome).toBe("applied");
    expect(await subscriptionRow(projectId)).toMatchObject({ requests_this_period: "0", period_reset_at: new Date((next + 30 * 86_400) * 1000) });
    // The first invoice delivered again under a new event id, late: older period, no reset.
    await sql("UPDATE subscriptions SET requests_this_period = 5 WHERE project_id = $1", [projectId]);
    expect((await sendEvent(event("invoice.paid", invoice))).body.outcome).toBe("stale");
    expect(Number((await subscriptionRow(projectId)).requests_this_period)).toBe(5);
  });

  it("Should not reset usage again when the first invoice is re-sent under a new event id", async () => {
    const { projectId, customer } = await subscribedProject();
    const sub = subscription("pro", { customer, periodStart: unixNow() - 60 });
    await sendEvent(event("customer.subscription.created", sub));
    await sql("UPDATE subscriptions SET requests_this_period = 900 WHERE project_id = $1", [projectId]);
    const invoice = paidInvoice(sub);
    expect((await sendEvent(event("invoice.paid", invoice))).body.outcome).toBe("applied");
    expect(Number((await subscriptionRow(projectId)).requests_this_period)).toBe(0);
    await sql("UPDATE subscriptions SET requests_this_period = 42 WHERE project_id = $1", [projectId]);
    // The same invoice, a new event (new id, later created): the period it pays for is the current one.
    const resent = event("invoice.paid", invoice, unixNow() + 5);
    expect((await sendEvent(resent)).body.outcome).toBe("stale");
    expect(Number((await subscriptionRow(projectId)).requests_this_period)).toBe(42);
  });

  it("Should record invoice.payment_failed without changing the subscription", async () => {
    const { projectId, customer } = await subscribedProject();
    const sub = subscription("pro", { customer });
    await sendEvent(event("customer.subscription.created", sub));
    const before = await subscriptionRow(projectId);
    const failed = event("invoice.payment_failed", paidInvoice(sub, { billingReason: "subscription_cycle", status: "open" }));
    expect((await sendEvent(failed)).body.outcome).toBe("recorded");
    expect(await subscriptionRow(projectId)).toEqual(before);
    expect(await eventRow(failed.id)).toMatchObject({ type: "invoice.payment_failed", outcome: "recorded", project_id: projectId });
  });

  it("Should acknowledge unknown event types and events for no project, changing nothing", async () => {
    const { projectId, customer } = await subscribedProject();
    const before = await subscriptionRow(projectId);
    const other = event("customer.created", { id: customer } as Stripe.Customer);
    expect(await sendEvent(other)).toEqual({ status: 200, body: { received: true, outcome: "ignored" } });
    expect(await eventRow(other.id)).toBeUndefined();
    const stranger = event("customer.subscription.created", subscription("pro", { customer: stripeId("cus") }));
    expect((await sendEvent(stranger)).body.outcome).toBe("unmatched");
    expect(await eventRow(stranger.id)).toMatchObject({ outcome: "unmatched", project_id: null });
    const otherProduct = event("customer.subscription.created", subscription("other", { customer }));
    expect((await sendEvent(otherProduct)).body.outcome).toBe("ignored");
    expect(await subscriptionRow(projectId)).toEqual(before);
  });
});

describe("POST /webhook/payment: once only, newest wins", () => {
  it("Should process a duplicate delivery once, also when deliveries race", async () => {
    const { projectId, customer } = await subscribedProject();
    const created = event("customer.subscription.created", subscription("pro", { customer }));
    expect((await sendEvent(created)).body.outcome).toBe("applied");
    expect(await sendEvent(created)).toEqual({ status: 200, body: { received: true, outcome: "duplicate" } });

    await sql("UPDATE subscriptions SET requests_this_period = 900 WHERE project_id = $1", [projectId]);
    const sub = subscription("pro", { id: (await subscriptionRow(projectId)).payment_subscription_id!, customer });
    const renewal = event(
      "invoice.paid",
      paidInvoice(sub, { billingReason: "subscription_cycle", periodStart: unixNow(), periodEnd: unixNow() + 40 * 86_400 }),
    );
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => sendEvent(renewal).then((r) => r.body.outcome)));
    expect(outcomes.filter((o) => o === "applied")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "duplicate")).toHaveLength(5);
    const [{ n }] = (await sql("SELECT count(*)::int AS n FROM webhook_events WHERE id = $1", [renewal.id])) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("Should keep the newest state when events arrive out of order", async () => {
    const { key, customer } = await subscribedProject();
    const t = unixNow();
    const id = stripeId("sub");
    const created = event("customer.subscription.created", subscription("pro", { id, customer }), t);
    const upgraded = event("customer.subscription.updated", subscription("team", { id, customer }), t + 10);
    const deleted = event("customer.subscription.deleted", subscription("team", { id, customer, status: "canceled" }), t + 20);

    expect((await sendEvent(upgraded)).body.outcome).toBe("applied");
    expect((await sendEvent(created)).body.outcome).toBe("stale"); // older than the upgrade
    expect((await apiSubscription(key)).tier).toBe("team");
    expect((await sendEvent(deleted)).body.outcome).toBe("applied");
    const late = event("customer.subscription.updated", subscription("enterprise", { id, customer }), t + 15);
    expect((await sendEvent(late)).body.outcome).toBe("stale");
    expect(await apiSubscription(key)).toMatchObject({ tier: "free", status: "canceled", payment_subscription_id: null });
  });

  it("Should not let the end of a replaced subscription downgrade the project", async () => {
    const { key, customer } = await subscribedProject();
    const t = unixNow();
    const old = stripeId("sub");
    await sendEvent(event("customer.subscription.created", subscription("pro", { id: old, customer }), t));
    await sendEvent(event("customer.subscription.created", subscription("team", { customer }), t + 1));
    expect((await sendEvent(event("customer.subscription.deleted", subscription("pro", { id: old, customer, status: "canceled" }), t + 2))).body.outcome).toBe(
      "stale",
    );
    expect((await apiSubscription(key)).tier).toBe("team");
  });

  it("Should find the project by metadata.project_id when the subscription event comes first", async () => {
    const { key, projectId } = await newProject();
    const sub = subscription("pro", { customer: stripeId("cus"), metadata: { project_id: projectId } });
    expect((await sendEvent(event("customer.subscription.created", sub))).body.outcome).toBe("applied");
    expect(await apiSubscription(key)).toMatchObject({ tier: "pro", payment_subscription_id: sub.id });
    const response = await postWebhook(event("checkout.session.completed", completedSession(projectId, String(sub.customer), sub.id)));
    expect(response.status).toBe(200);
    expect((await subscriptionRow(projectId)).payment_customer_id).toBe(sub.customer);
  });
});
