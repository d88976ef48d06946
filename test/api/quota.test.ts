import { describe, expect, it } from "vitest";
import { api, newProject, postLog, sql } from "./helpers";

// vitest.config.ts lowers the free tier's limit to 50 through TIER_LIMITS.
const FREE_LIMIT = 50;

describe("Quota on POST /internal/log", () => {
  it("Should accept exactly the limit under 200 concurrent posts", async () => {
    const { key, projectId } = await newProject();
    const statuses = await Promise.all(
      Array.from({ length: 200 }, () =>
        postLog(key).then(async (r) => {
          const body = (await r.json()) as { detail?: string };
          return { status: r.status, body, retryAfter: r.headers.get("Retry-After") };
        }),
      ),
    );
    const accepted = statuses.filter((s) => s.status === 202);
    const refused = statuses.filter((s) => s.status === 429);
    expect(accepted).toHaveLength(FREE_LIMIT);
    expect(refused).toHaveLength(200 - FREE_LIMIT);
    expect(refused[0]!.body.detail).toMatch(/free tier allows 50 requests/);
    expect(Number(refused[0]!.retryAfter)).toBeGreaterThan(0);
    const [sub] = await sql("SELECT requests_this_period FROM subscriptions WHERE project_id = $1", [projectId]);
    expect(Number(sub!.requests_this_period)).toBe(FREE_LIMIT);
    const [{ n }] = (await sql("SELECT count(*)::int AS n FROM llm_requests WHERE project_id = $1", [projectId])) as [{ n: number }];
    expect(n).toBe(FREE_LIMIT);
  });

  it("Should reset the counter when period_reset_at has passed", async () => {
    const { key, projectId } = await newProject();
    await sql("UPDATE subscriptions SET requests_this_period = $2, period_reset_at = now() - interval '1 minute' WHERE project_id = $1", [
      projectId,
      FREE_LIMIT,
    ]);
    const res = await postLog(key);
    expect(res.status).toBe(202);
    const [sub] = await sql("SELECT requests_this_period, period_start_at, period_reset_at FROM subscriptions WHERE project_id = $1", [projectId]);
    expect(Number(sub!.requests_this_period)).toBe(1);
    const now = new Date();
    const nextMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const thisMonth = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    expect((sub!.period_reset_at as Date).toISOString()).toBe(nextMonth.toISOString());
    expect((sub!.period_start_at as Date).toISOString()).toBe(thisMonth.toISOString());
  });

  it("Should refuse at the limit until the period resets, then accept again", async () => {
    const { key, projectId } = await newProject();
    await sql("UPDATE subscriptions SET requests_this_period = $2 WHERE project_id = $1", [projectId, FREE_LIMIT]);
    expect((await postLog(key)).status).toBe(429);
    await sql("UPDATE subscriptions SET period_reset_at = now() - interval '1 second' WHERE project_id = $1", [projectId]);
    expect((await postLog(key)).status).toBe(202);
  });

  it("Should move a paid period forward by whole months when no invoice arrived", async () => {
    const { key, projectId } = await newProject();
    await sql(
      `UPDATE subscriptions SET tier = 'pro', payment_subscription_id = 'sub_test', requests_this_period = 10,
         period_reset_at = now() - interval '40 days' WHERE project_id = $1`,
      [projectId],
    );
    expect((await postLog(key)).status).toBe(202);
    const [sub] = await sql("SELECT requests_this_period, period_reset_at, period_start_at FROM subscriptions WHERE project_id = $1", [projectId]);
    expect(Number(sub!.requests_this_period)).toBe(1);
    const reset = (sub!.period_reset_at as Date).getTime();
    expect(reset).toBeGreaterThan(Date.now());
    expect(reset - Date.now()).toBeLessThanOrEqual(31 * 86_400_000);
    expect((sub!.period_start_at as Date).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("Should not limit the enterprise tier", async () => {
    const { key, projectId } = await newProject();
    await sql("UPDATE subscriptions SET tier = 'enterprise', requests_this_period = 1000000000 WHERE project_id = $1", [projectId]);
    expect((await postLog(key)).status).toBe(202);
  });

  it("Should report tier, limit and usage", async () => {
    const { key } = await newProject();
    await postLog(key);
    await postLog(key);
    const res = await api("/api/billing/subscription", { headers: { "X-Service-Key": key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ tier: "free", limit: FREE_LIMIT, requests_this_period: 2, status: "active" });
  });
});
