import { describe, expect, it } from "vitest";
import { unixNow } from "@sightline/stripe-stand-in/objects";
import { effectOf, type InvoicePaid, type SubscriptionState } from "../../src/billing/effects";
import { GRACE_DAYS } from "../../src/billing/grace";
import { priceTable, tierForPrices } from "../../src/billing/prices";
import { decideInvoicePaid, decideSubscription, type BillingRow } from "../../src/billing/transitions";
import { event, paidInvoice, subscription, TEST_PRICES } from "./stripe-helpers";

const prices = priceTable({ pro: TEST_PRICES.pro, team: TEST_PRICES.team, enterprise: " " });
const row = (over: Partial<BillingRow> = {}): BillingRow => ({
  tier: "free",
  status: "active",
  payment_customer_id: "cus_1",
  payment_subscription_id: null,
  requests_this_period: 10,
  period_start_at: new Date("2026-11-01T00:00:00Z"),
  period_reset_at: new Date("2026-12-01T00:00:00Z"),
  last_event_created: null,
  retention_tier: null,
  retention_grace_until: null,
  ...over,
});
const state = (status: string, over: Partial<SubscriptionState> = {}): SubscriptionState => ({
  kind: "subscription_state",
  subscriptionId: "sub_1",
  customerId: "cus_1",
  projectId: null,
  status,
  tier: "pro",
  deleted: false,
  ...over,
});

describe("Billing decisions (pure)", () => {
  it("Should map each subscription status to a tier", () => {
    const tierAt = (status: string) => decideSubscription(row(), state(status), 100).patch?.tier;
    expect(["active", "trialing", "past_due"].map(tierAt)).toEqual(["pro", "pro", "pro"]);
    expect(["unpaid", "incomplete", "paused", "some_future_status"].map(tierAt)).toEqual(["free", "free", "free", "free"]);
    const linked = row({ tier: "pro", payment_subscription_id: "sub_1" });
    for (const status of ["canceled", "incomplete_expired"])
      expect(decideSubscription(linked, state(status), 100).patch).toEqual({
        tier: "free",
        status,
        payment_subscription_id: null,
        last_event_created: 100,
        retention_tier: "pro",
        retention_grace_until: new Date(100_000 + GRACE_DAYS * 86_400_000),
      });
  });

  it("Should ignore older events but apply a state read back from Stripe", () => {
    const newer = row({ last_event_created: 200 });
    expect(decideSubscription(newer, state("active"), 199)).toEqual({ outcome: "stale" });
    expect(decideSubscription(newer, state("active"), 200).outcome).toBe("applied"); // same second: arrival order
    expect(decideSubscription(newer, state("active"), 150, true).patch).toMatchObject({ tier: "pro", last_event_created: 200 });
  });

  it("Should start a period only for an invoice that pays a later one", () => {
    const linked = row({
      payment_subscription_id: "sub_1",
      period_start_at: new Date("2026-11-21T00:00:00Z"),
      period_reset_at: new Date("2026-12-21T00:00:00Z"),
    });
    const paid = (start: string, end: string, billingReason = "subscription_cycle"): InvoicePaid => ({
      kind: "invoice_paid",
      subscriptionId: "sub_1",
      customerId: "cus_1",
      period: { start: Date.parse(start) / 1000, end: Date.parse(end) / 1000 },
      billingReason,
    });
    expect(decideInvoicePaid(linked, paid("2026-12-21T00:00:00Z", "2027-01-21T00:00:00Z"), 1).patch).toMatchObject({ requests_this_period: 0 });
    expect(decideInvoicePaid(linked, paid("2026-11-21T00:00:00Z", "2026-12-21T00:00:00Z"), 1).outcome).toBe("stale"); // already counted
    // The first invoice re-sent once it started the period: the same period, no second reset.
    const started = row({
      payment_subscription_id: "sub_1",
      period_start_at: new Date("2026-11-03T00:00:00Z"),
      period_reset_at: new Date("2026-12-03T00:00:00Z"),
    });
    expect(decideInvoicePaid(started, paid("2026-11-03T00:00:00Z", "2026-12-03T00:00:00Z", "subscription_create"), 2).outcome).toBe("stale");
    // A weekly first invoice ends before the calendar month does, and still starts the period.
    expect(decideInvoicePaid(row(), paid("2026-11-03T00:00:00Z", "2026-11-10T00:00:00Z", "subscription_create"), 1).outcome).toBe("applied");
    expect(decideInvoicePaid(linked, { ...paid("2026-12-21T00:00:00Z", "2027-01-21T00:00:00Z"), subscriptionId: "sub_other" }, 1).outcome).toBe("stale");
    expect(decideInvoicePaid(linked, { ...paid("2026-12-21T00:00:00Z", "2027-01-21T00:00:00Z"), period: null }, 1).outcome).toBe("ignored");
  });

  it("Should read tier, status and period from Stripe's object shapes", () => {
    expect(tierForPrices(prices, ["price_x", TEST_PRICES.pro, TEST_PRICES.team])).toBe("team");
    expect(prices.enterprise).toBeNull(); // blank: not sold
    const sub = subscription("team", { customer: "cus_9", status: "past_due", metadata: { project_id: "01A1FBB9-244B-7FC2-8832-5B59349B1907" } });
    expect(effectOf(event("customer.subscription.updated", sub), prices)).toEqual({
      kind: "subscription_state",
      subscriptionId: sub.id,
      customerId: "cus_9",
      projectId: "01a1fbb9-244b-7fc2-8832-5b59349b1907",
      status: "past_due",
      tier: "team",
      deleted: false,
    });
    const start = unixNow();
    const invoice = paidInvoice(subscription("pro", { customer: "cus_9", periodStart: start }));
    expect(invoice.period_end).toBe(invoice.created); // not the service period
    expect(effectOf(event("invoice.paid", invoice), prices)).toMatchObject({
      subscriptionId: invoice.parent!.subscription_details!.subscription,
      period: { start },
    });
  });
});
