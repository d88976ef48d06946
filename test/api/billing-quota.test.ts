import { describe, expect, it } from "vitest";
import { stripeId, unixNow } from "@sightline/stripe-stand-in/objects";
import { newProject, postLog, sql } from "./helpers";
import { apiSubscription, event, linkCustomer, paidInvoice, sendEvent, subscription, subscriptionRow } from "./stripe-helpers";

// vitest.config.ts lowers the free limit to 50; pro keeps 500,000 and team 5,000,000.
const PRO_LIMIT = 500_000;

describe("Billing and the quota of POST /internal/log", () => {
  it("Should refuse logging after a downgrade puts the project over its new limit, until the period resets", async () => {
    const { key, projectId } = await newProject();
    const customer = await linkCustomer(projectId);
    const id = stripeId("sub");
    const t = unixNow();
    await sendEvent(event("customer.subscription.created", subscription("team", { id, customer }), t));
    await sql("UPDATE subscriptions SET requests_this_period = $2 WHERE project_id = $1", [projectId, PRO_LIMIT + 10]);
    expect((await postLog(key)).status).toBe(202); // team: 5,000,000 allowed

    const downgrade = subscription("pro", { id, customer });
    expect((await sendEvent(event("customer.subscription.updated", downgrade, t + 1))).body.outcome).toBe("applied");
    const refused = await postLog(key);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/the pro tier allows 500000 requests per period \(500011 used\)/);
    expect(Number((await subscriptionRow(projectId)).requests_this_period)).toBe(PRO_LIMIT + 11);

    // The next paid invoice starts a new period: logging is accepted again.
    const next = unixNow();
    await sendEvent(event("invoice.paid", paidInvoice(downgrade, { billingReason: "subscription_cycle", periodStart: next, periodEnd: next + 31 * 86_400 })));
    expect((await postLog(key)).status).toBe(202);
    expect((await apiSubscription(key)).requests_this_period).toBe(1);
  });

  it("Should hold a canceled project to the free limit until its period resets, then count calendar months", async () => {
    const { key, projectId } = await newProject();
    const customer = await linkCustomer(projectId);
    const sub = subscription("pro", { customer });
    const t = unixNow();
    await sendEvent(event("customer.subscription.created", sub, t));
    await sendEvent(event("invoice.paid", paidInvoice(sub)));
    await sql("UPDATE subscriptions SET requests_this_period = 60 WHERE project_id = $1", [projectId]);
    expect((await postLog(key)).status).toBe(202);

    await sendEvent(event("customer.subscription.deleted", subscription("pro", { id: sub.id, customer, status: "canceled" }), t + 1));
    expect((await apiSubscription(key)).limit).toBe(50);
    expect((await postLog(key)).status).toBe(429);

    await sql("UPDATE subscriptions SET period_reset_at = now() - interval '1 second' WHERE project_id = $1", [projectId]);
    expect((await postLog(key)).status).toBe(202);
    const now = new Date();
    const row = await subscriptionRow(projectId);
    expect(Number(row.requests_this_period)).toBe(1);
    expect(row.period_reset_at.toISOString()).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
  });

  it("Should lift the limit as soon as an upgrade is reported", async () => {
    const { key, projectId } = await newProject();
    const customer = await linkCustomer(projectId);
    await sql("UPDATE subscriptions SET requests_this_period = 50 WHERE project_id = $1", [projectId]);
    expect((await postLog(key)).status).toBe(429);
    await sendEvent(event("customer.subscription.created", subscription("pro", { customer })));
    expect((await postLog(key)).status).toBe(202);
  });
});
