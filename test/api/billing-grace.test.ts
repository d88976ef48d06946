/**
 * No data lost to a missed payment (issue 32, point 4; docs/retention.md): when a paid tier
 * lapses, the retention sweep keeps the highest tier's retention for GRACE_DAYS, driven here by
 * Stripe's signed webhook events and the sweep the scorer worker runs (src/upkeep/retention.ts).
 */
import { describe, expect, it } from "vitest";
import type Stripe from "stripe";
import { GRACE_DAYS } from "../../src/billing/grace";
import { DEFAULT_TIER_RETENTION } from "../../src/billing/tiers";
import { apiConfig } from "../../src/config/api";
import { withDb } from "../../src/db/driver/with-db";
import { applyRetention } from "../../src/upkeep/retention";
import { api, newProject, sql, testEnv } from "./helpers";
import { event, linkCustomer, sendEvent, subscription, subscriptionRow } from "./stripe-helpers";

const DAY_MS = 86_400_000;

/** A pro project linked to a Stripe subscription, with calls 1 and 35 days old (35 > free's 30, < pro's 365). */
async function proProjectWithCalls() {
  const project = await newProject();
  const customer = await linkCustomer(project.projectId);
  const ids: Record<number, string> = {};
  for (const days of [1, 35]) {
    const [r] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state)
       VALUES (gen_random_uuid(), $1, 'm', 'openai', '{"messages": []}', now() - make_interval(days => $2), 'scored') RETURNING id`,
      [project.projectId, days],
    );
    ids[days] = r!.id;
  }
  const t = Math.floor(Date.now() / 1000);
  const at = (status: Stripe.Subscription.Status) => subscription("pro", { id: `sub_grace_${customer}`, customer, status });
  expect((await sendEvent(event("customer.subscription.created", at("active"), t))).body.outcome).toBe("applied");
  expect((await subscriptionRow(project.projectId)).tier).toBe("pro");
  return { ...project, customer, ids, t, at };
}

/** Runs the retention sweep over `projectId` as the scorer's cron does; returns how many calls it deleted. */
const sweep = (projectId: string) => withDb(apiConfig(testEnv).db, (db) => applyRetention(db, DEFAULT_TIER_RETENTION, { projectIds: [projectId] }));

const kept = async (projectId: string) => (await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1", [projectId])).map((r) => r.id).sort();

/** The grace as GET /api/billing/subscription reports it. */
async function reportedGrace(key: string) {
  const res = await api("/api/billing/subscription", { headers: { "X-Service-Key": key } });
  return ((await res.json()) as { retention_days: number | null; retention_grace: { tier: string; retention_days: number | null; until: string } | null })
    .retention_grace;
}

describe("Retention grace period after a lapse", () => {
  it("Should delete no call when a pro subscription goes unpaid, and nothing when it is paid again within the grace", async () => {
    const { key, projectId, ids, t, at } = await proProjectWithCalls();
    expect((await sendEvent(event("customer.subscription.updated", at("unpaid"), t + 1))).body.outcome).toBe("applied");
    const row = await subscriptionRow(projectId);
    expect(row).toMatchObject({ tier: "free", status: "unpaid" });
    const until = new Date((t + 1) * 1000 + GRACE_DAYS * DAY_MS);
    expect(await reportedGrace(key)).toEqual({ tier: "pro", retention_days: 365, until: until.toISOString() });

    expect(await sweep(projectId)).toBe(0);
    expect(await kept(projectId)).toEqual([ids[1], ids[35]].sort());

    // Paid again: pro is back with every call, and the grace is over.
    expect((await sendEvent(event("customer.subscription.updated", at("active"), t + 2))).body.outcome).toBe("applied");
    expect((await subscriptionRow(projectId)).tier).toBe("pro");
    expect(await reportedGrace(key)).toBeNull();
    expect(await sweep(projectId)).toBe(0);
    expect(await kept(projectId)).toEqual([ids[1], ids[35]].sort());
  });

  it("Should keep the calls through a cancellation's grace, then delete by the free tier once the grace has ended", async () => {
    const { key, projectId, ids, t, at } = await proProjectWithCalls();
    expect((await sendEvent(event("customer.subscription.updated", at("past_due"), t + 1))).body.outcome).toBe("applied");
    expect((await sendEvent(event("customer.subscription.deleted", at("canceled"), t + 2))).body.outcome).toBe("applied");
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "free", status: "canceled", payment_subscription_id: null });
    expect((await reportedGrace(key))?.tier).toBe("pro");
    expect(await sweep(projectId)).toBe(0);

    // The grace ends (its end moved into the past): deletion follows the free tier's 30 days.
    await sql("UPDATE subscriptions SET retention_grace_until = now() - interval '1 second' WHERE project_id = $1", [projectId]);
    expect(await reportedGrace(key)).toBeNull();
    expect(await sweep(projectId)).toBe(1);
    expect(await kept(projectId)).toEqual([ids[1]]);
  });
});
