import { describe, expect, it } from "vitest";
import { api, internal, newProject, sql, expectProblem, withEnv } from "./helpers";
import type Stripe from "stripe";
import { sendEvent, standIn, standInUrl, stripe, stripeRequests, subscriptionRow, TEST_PRICES, TEST_RETURN_ORIGIN } from "./stripe-helpers";

const urls = { success_url: `${TEST_RETURN_ORIGIN}/billing/done?session={CHECKOUT_SESSION_ID}`, cancel_url: `${TEST_RETURN_ORIGIN}/billing` };
const checkout = (key: string, body: unknown) => api("/api/billing/checkout", { method: "POST", headers: { "X-Service-Key": key }, json: body });
const portal = (key: string, body: unknown) => api("/api/billing/portal", { method: "POST", headers: { "X-Service-Key": key }, json: body });

describe("POST /api/billing/checkout", () => {
  it("Should create a subscription checkout for pro: customer, client_reference_id, price, idempotency key", async () => {
    const { key, projectId } = await newProject("checkout pro");
    const res = await checkout(key, { tier: "pro", ...urls });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { id: string; url: string };
    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${standInUrl()}/c/pay/${session.id}`);

    const seen = await stripeRequests(projectId);
    const customerCreate = seen.find((r) => r.path === "/v1/customers")!;
    expect(customerCreate.params).toMatchObject({ name: "checkout pro", metadata: { project_id: projectId } });
    expect(customerCreate.idempotencyKey).toBe(`sightline-customer-${projectId}`);
    const sessionCreate = seen.find((r) => r.path === "/v1/checkout/sessions")!;
    const row = await subscriptionRow(projectId);
    expect(row.payment_customer_id).toMatch(/^cus_/);
    expect(sessionCreate.params).toMatchObject({
      mode: "subscription",
      customer: row.payment_customer_id,
      client_reference_id: projectId,
      line_items: [{ price: TEST_PRICES.pro, quantity: "1" }],
      success_url: urls.success_url,
      cancel_url: urls.cancel_url,
      metadata: { project_id: projectId, tier: "pro" },
      subscription_data: { metadata: { project_id: projectId } },
    });
    expect(sessionCreate.idempotencyKey).toMatch(new RegExp(`^sightline-checkout-${projectId}-[0-9a-f]{32}$`));
    expect(sessionCreate.stripeVersion).toBe("2026-10-28.endive");
    expect(row.tier).toBe("free"); // the tier changes only when Stripe reports the paid subscription
  });

  it("Should reuse the project's customer, and answer a repeated request with the same open session", async () => {
    const { key, projectId } = await newProject();
    const first = (await (await checkout(key, { tier: "pro", ...urls })).json()) as { id: string };
    const again = (await (await checkout(key, { tier: "pro", ...urls })).json()) as { id: string };
    expect(again.id).toBe(first.id);
    const team = await checkout(key, { tier: "team", ...urls });
    expect(team.status).toBe(200);
    expect(((await team.json()) as { id: string }).id).not.toBe(first.id);

    const seen = await stripeRequests(projectId);
    expect(seen.filter((r) => r.path === "/v1/customers")).toHaveLength(1);
    // The repeat read the open session back instead of creating one.
    const sessions = seen.filter((r) => r.path === "/v1/checkout/sessions");
    expect(sessions).toHaveLength(2);
    const customer = (await subscriptionRow(projectId)).payment_customer_id;
    expect(sessions.every((s) => s.params.customer === customer)).toBe(true);
    expect(sessions[1]!.idempotencyKey).not.toBe(sessions[0]!.idempotencyKey);
    expect(sessions[1]!.params).toMatchObject({ line_items: [{ price: TEST_PRICES.team }] });
    expect((await stripeRequests(first.id)).filter((r) => r.method === "GET" && r.path === `/v1/checkout/sessions/${first.id}`)).toHaveLength(1);
  });

  it("Should hand back a new session that can be paid after a paid subscription was canceled (re-subscribe at once)", async () => {
    const { key, projectId } = await newProject();
    const pay = async (sessionId: string) => {
      const paid = await standIn<{ events: Stripe.Event[]; subscription: Stripe.Subscription }>(`/checkout/sessions/${sessionId}/complete`, {});
      for (const e of paid.events) expect((await sendEvent(e)).status).toBe(200);
      return paid.subscription;
    };
    const first = (await (await checkout(key, { tier: "pro", ...urls })).json()) as { id: string };
    const sub = await pay(first.id);
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "pro", payment_subscription_id: sub.id });
    const canceled = await standIn<{ events: Stripe.Event[] }>(`/subscriptions/${sub.id}/cancel`, {});
    for (const e of canceled.events) expect((await sendEvent(e)).status).toBe(200);
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "free", payment_subscription_id: null });

    const res = await checkout(key, { tier: "pro", ...urls });
    expect(res.status).toBe(200);
    const second = (await res.json()) as { id: string; url: string };
    expect(second.id).not.toBe(first.id);
    expect(second.url).toBe(`${standInUrl()}/c/pay/${second.id}`);
    const again = await pay(second.id);
    expect(await subscriptionRow(projectId)).toMatchObject({ tier: "pro", status: "active", payment_subscription_id: again.id });
  });

  it("Should never hand back an expired session, and replace an open one whose return URLs changed (expiring it)", async () => {
    const { key } = await newProject();
    const first = (await (await checkout(key, { tier: "pro", ...urls })).json()) as { id: string };
    await stripe().checkout.sessions.expire(first.id);
    const second = (await (await checkout(key, { tier: "pro", ...urls })).json()) as { id: string };
    expect(second.id).not.toBe(first.id);
    expect((await stripe().checkout.sessions.retrieve(second.id)).status).toBe("open");

    const moved = { ...urls, cancel_url: `${TEST_RETURN_ORIGIN}/billing/elsewhere` };
    const third = (await (await checkout(key, { tier: "pro", ...moved })).json()) as { id: string };
    expect(third.id).not.toBe(second.id);
    expect((await stripe().checkout.sessions.retrieve(second.id)).status).toBe("expired");
    expect(await stripe().checkout.sessions.retrieve(third.id)).toMatchObject({ status: "open", cancel_url: moved.cancel_url });
    // The open one is handed back while it stays open.
    expect(((await (await checkout(key, { tier: "pro", ...moved })).json()) as { id: string }).id).toBe(third.id);
  });

  it("Should accept the dashboard's internal secret with project_id", async () => {
    const { projectId } = await newProject();
    const res = await api(`/api/billing/checkout?project_id=${projectId}`, { method: "POST", headers: internal, json: { tier: "enterprise", ...urls } });
    expect(res.status).toBe(200);
    const seen = await stripeRequests(projectId);
    expect(seen.find((r) => r.path === "/v1/checkout/sessions")!.params).toMatchObject({ line_items: [{ price: TEST_PRICES.enterprise }] });
  });

  it("Should refuse free (422), the current tier (409) and a second subscription (409)", async () => {
    const { key, projectId } = await newProject();
    const free = await checkout(key, { tier: "free", ...urls });
    expect(free.status).toBe(422);
    expect(((await free.json()) as { detail: string }).detail).toMatch(/^tier: free needs no checkout/);

    await sql("UPDATE subscriptions SET tier = 'pro' WHERE project_id = $1", [projectId]);
    const same = await checkout(key, { tier: "pro", ...urls });
    expect(same.status).toBe(409);
    expect(await same.json()).toEqual({ detail: "the project is already on the pro tier" });

    await sql("UPDATE subscriptions SET payment_subscription_id = $2, status = 'past_due' WHERE project_id = $1", [projectId, `sub_${projectId}`]);
    const other = await checkout(key, { tier: "team", ...urls });
    await expectProblem(other, 409, "change plans in the billing portal");
    expect(await stripeRequests(projectId)).toEqual([]); // Stripe was never called
  });

  it("Should refuse return URLs outside BILLING_RETURN_ORIGINS and malformed bodies with 422", async () => {
    const { key, projectId } = await newProject();
    const foreign = await checkout(key, { tier: "pro", ...urls, success_url: "https://evil.example/steal" });
    expect(foreign.status).toBe(422);
    expect(((await foreign.json()) as { detail: string }).detail).toMatch(/^success_url: origin https:\/\/evil\.example is not allowed/);
    const cancel = await checkout(key, { tier: "pro", ...urls, cancel_url: "javascript:alert(1)" });
    expect(cancel.status).toBe(422);
    expect(((await cancel.json()) as { detail: string }).detail).toMatch(/^cancel_url/);
    const tier = await checkout(key, { tier: "platinum", ...urls });
    expect(tier.status).toBe(422);
    expect(((await tier.json()) as { detail: string }).detail).toMatch(/^tier/);
    const missing = await checkout(key, { tier: "pro" });
    await expectProblem(missing, 422, "success_url");
    expect(await stripeRequests(projectId)).toEqual([]);
  });

  it("Should need credentials: 401 without a key, 422 without project_id, 404 for an unknown project", async () => {
    expect((await api("/api/billing/checkout", { method: "POST", json: { tier: "pro", ...urls } })).status).toBe(401);
    expect((await checkout("slk_" + "0".repeat(48), { tier: "pro", ...urls })).status).toBe(401);
    const noProject = await api("/api/billing/checkout", { method: "POST", headers: internal, json: { tier: "pro", ...urls } });
    expect(noProject.status).toBe(422);
    const unknown = await api(`/api/billing/checkout?project_id=${crypto.randomUUID()}`, { method: "POST", headers: internal, json: { tier: "pro", ...urls } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "project not found" });
  });

  it("Should answer 503 when billing is not configured and 502 when Stripe refuses the price", async () => {
    const { key } = await newProject();
    const init = () => ({
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify({ tier: "team", ...urls }),
    });
    const off = await withEnv({ STRIPE_SECRET_KEY: "" }, "/api/billing/checkout", init());
    expect(off.status).toBe(503);
    expect(await off.json()).toEqual({ detail: "billing is not configured on this deployment" });
    const unsold = await withEnv({ STRIPE_PRICE_TEAM: "" }, "/api/billing/checkout", init());
    expect(unsold.status).toBe(422);
    expect(((await unsold.json()) as { detail: string }).detail).toBe("tier: team is not sold by checkout on this deployment");
    const refused = await withEnv({ STRIPE_PRICE_TEAM: "price_nobody_created" }, "/api/billing/checkout", init());
    expect(refused.status).toBe(502);
    expect(await refused.json()).toEqual({ detail: "the payment provider refused the request (resource_missing)" });
    const down = await withEnv({ STRIPE_API_BASE: "http://127.0.0.1:1" }, "/api/billing/checkout", init());
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ detail: "the payment provider is unavailable, try again later" });
  });
});

describe("POST /api/billing/portal", () => {
  it("Should answer 409 before the project has a customer, then a portal session for it", async () => {
    const { key, projectId } = await newProject();
    const before = await portal(key, { return_url: `${TEST_RETURN_ORIGIN}/settings` });
    await expectProblem(before, 409, "no billing account yet");

    expect((await checkout(key, { tier: "pro", ...urls })).status).toBe(200);
    const res = await portal(key, { return_url: `${TEST_RETURN_ORIGIN}/settings` });
    expect(res.status).toBe(200);
    const { url } = (await res.json()) as { url: string };
    expect(url).toMatch(new RegExp(`^${standInUrl()}/p/session/bps_`));
    const customer = (await subscriptionRow(projectId)).payment_customer_id!;
    const seen = (await stripeRequests(customer)).filter((r) => r.path === "/v1/billing_portal/sessions");
    expect(seen).toHaveLength(1);
    expect(seen[0]!.params).toEqual({ customer, return_url: `${TEST_RETURN_ORIGIN}/settings` });
  });

  it("Should refuse a return_url outside the allowed origins", async () => {
    const { key } = await newProject();
    const res = await portal(key, { return_url: "http://localhost:9999/x" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^return_url: origin http:\/\/localhost:9999 is not allowed/);
  });
});

describe("a Stripe customer that is gone", () => {
  it("Should create and record a new customer, so checkout and the portal still answer with a session", async () => {
    const { key, projectId } = await newProject("customer deleted in Stripe");
    // The stored customer no longer exists at Stripe (deleted in its dashboard, or a stand-in that lost it).
    const missing = "cus_DeletedInStripeDashboard0";
    await sql("UPDATE subscriptions SET payment_customer_id = $2 WHERE project_id = $1", [projectId, missing]);

    const res = await checkout(key, { tier: "pro", ...urls });
    expect(res.status).toBe(200);
    const session = (await res.json()) as { id: string; url: string };
    expect(session.url).toBe(`${standInUrl()}/c/pay/${session.id}`);
    const replacement = (await subscriptionRow(projectId)).payment_customer_id!;
    expect(replacement).toMatch(/^cus_/);
    expect(replacement).not.toBe(missing);
    const seen = await stripeRequests(projectId);
    expect(seen.filter((r) => r.path === "/v1/customers").map((r) => r.idempotencyKey)).toEqual([`sightline-customer-${projectId}-after-${missing}`]);
    const sessions = seen.filter((r) => r.path === "/v1/checkout/sessions");
    expect(sessions.map((r) => r.params.customer)).toEqual([missing, replacement]);

    // The portal too: the customer is replaced again if it went missing again.
    await sql("UPDATE subscriptions SET payment_customer_id = $2 WHERE project_id = $1", [projectId, "cus_GoneAgain0000000000000"]);
    const opened = await portal(key, { return_url: `${TEST_RETURN_ORIGIN}/settings` });
    expect(opened.status).toBe(200);
    expect(((await opened.json()) as { url: string }).url).toMatch(new RegExp(`^${standInUrl()}/p/session/bps_`));
    expect((await subscriptionRow(projectId)).payment_customer_id).not.toBe("cus_GoneAgain0000000000000");
  });
});

describe("Billing in the OpenAPI document", () => {
  it("Should document checkout, portal and the webhook", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    expect(Object.keys(doc.paths["/api/billing/checkout"]!.post!.responses).sort()).toEqual(["200", "401", "403", "404", "409", "422", "502", "503"]);
    expect(doc.paths["/api/billing/portal"]!.post).toBeDefined();
    expect(Object.keys(doc.paths["/webhook/payment"]!.post!.responses).sort()).toEqual(["200", "400", "413", "503"]);
  });
});
