import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { unixNow } from "@sightline/stripe-stand-in/objects";
import { createApp } from "../../workers/api/src/app";
import type { AppEnv } from "../../workers/api/src/env";
import { api, newProject, testEnv } from "./helpers";
import { billingTables, event, linkCustomer, postWebhook, subscription, subscriptionRow, type PostOptions } from "./stripe-helpers";

/** A valid event that would move a fresh project to pro, if it were accepted. */
async function upgradeEvent() {
  const { projectId } = await newProject();
  const customer = await linkCustomer(projectId);
  return { projectId, event: event("customer.subscription.created", subscription("pro", { customer })) };
}

/** Posts `opts`' variation of a signed upgrade and checks: 400 `detail`, and no row of any billing table changed. */
async function refused(opts: (payload: string) => PostOptions, detail: string) {
  const { projectId, event: upgrade } = await upgradeEvent();
  const payload = JSON.stringify(upgrade, null, 2);
  const before = await billingTables();
  const res = await postWebhook(payload, opts(payload));
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ detail });
  expect(await billingTables()).toBe(before);
  expect((await subscriptionRow(projectId)).tier).toBe("free");
}

describe("POST /webhook/payment: signature", () => {
  it("Should accept the signature in Stripe-Signature and in Provider-Signature", async () => {
    for (const header of ["Stripe-Signature", "Provider-Signature"] as const) {
      const { projectId, event: upgrade } = await upgradeEvent();
      const res = await postWebhook(upgrade, { header });
      expect(res.status).toBe(200);
      expect((await subscriptionRow(projectId)).tier).toBe("pro");
    }
  });

  it("Should refuse a missing signature header", () =>
    refused(() => ({ header: null }), "missing signature header: send Stripe-Signature or Provider-Signature"));

  it("Should refuse a tampered body", () =>
    refused(
      (payload) => ({ body: payload.replace('"status": "active"', '"status": "active" ').replace("price_test_pro", "price_test_enterprise") }),
      "invalid webhook signature",
    ));

  it("Should refuse a signature made with another secret", () => refused(() => ({ secret: "whsec_not_the_endpoint_secret" }), "invalid webhook signature"));

  it("Should refuse a timestamp outside the 300 second tolerance", () =>
    refused(() => ({ timestamp: unixNow() - 301 }), "signature timestamp is outside the tolerance of 300 seconds"));

  it("Should refuse a malformed signature header", async () => {
    const { event: upgrade } = await upgradeEvent();
    const before = await billingTables();
    const res = await api("/webhook/payment", { method: "POST", headers: { "Stripe-Signature": "t=abc,v0=zz" }, body: JSON.stringify(upgrade) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "invalid webhook signature" });
    expect(await billingTables()).toBe(before);
  });

  it("Should refuse a correctly signed body that is not an event", async () => {
    const before = await billingTables();
    for (const payload of ["not json", JSON.stringify({ hello: "world" })]) {
      const res = await postWebhook(payload);
      expect(res.status).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^signed payload is not a webhook event/);
    }
    expect(await billingTables()).toBe(before);
  });

  it("Should answer 503 and change nothing when no webhook secret is configured", async () => {
    const { event: upgrade } = await upgradeEvent();
    const before = await billingTables();
    const ctx = createExecutionContext();
    const res = await createApp().fetch(
      new Request("http://api.test/webhook/payment", { method: "POST", headers: { "Stripe-Signature": "t=1,v1=00" }, body: JSON.stringify(upgrade) }),
      { ...testEnv, PAYMENT_WEBHOOK_SECRET: "" } as unknown as AppEnv,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ detail: "the payment webhook is not configured on this deployment" });
    expect(await billingTables()).toBe(before);
  });

  it("Should answer 405 to other methods and 413 to a body over 512 KiB", async () => {
    const get = await api("/webhook/payment");
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
    const big = await api("/webhook/payment", { method: "POST", headers: { "Stripe-Signature": "t=1,v1=00" }, body: "x".repeat(513 * 1024) });
    expect(big.status).toBe(413);
  });
});
