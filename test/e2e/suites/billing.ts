/**
 * Issues 6 and 16: billing under `npm run dev` with the Stripe stand-in, following README.md's
 * "Billing" section as a user would on a fresh clone. No billing variable is set: `npm run dev`
 * starts the stand-in by itself with its test values and lists it as a stand-in; the README's
 * checkout curl answers a checkout URL; paying it (`curl -X POST <url>`) delivers the signed checkout.session.completed,
 * customer.subscription.created and invoice.paid to POST /webhook/payment, and GET
 * /api/billing/subscription shows pro with limit 500000; the stand-in's cancel route delivers
 * customer.subscription.deleted and the project is back on free. Webhook requests without a
 * valid signature answer 400 and change nothing. Ports 8787 and 12111 of the README become
 * the stack's and the stand-in's.
 */
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import { eventObject } from "@sightline/stripe-stand-in/events";
import type { Subscription } from "../../../workers/api/src/routes/billing";
import { poll } from "../harness/api";
import { codeBlock, jsonValues } from "../harness/readme";
import { describeRun, runProgram } from "../harness/run";
import type { E2E, GetE2E } from "./context";

/** Where the README sends a user for billing's steps (its Billing section links here). */
const README = "docs/billing.md";
const SECTION = "Billing";

/** docs/billing.md as text, for the steps it gives in prose. */
const readmeText = () => readFileSync(join(ROOT, README), "utf8");

/** The README's text with its ports (API 8787, dashboard 8788, stand-in 12111) replaced by this run's. */
function localize(text: string, { stack, stripe }: E2E): string {
  return text
    .replaceAll(":8787", `:${new URL(stack.apiUrl).port}`)
    .replaceAll(":12111", `:${new URL(stripe.url).port}`)
    .replaceAll(":8788", `:${new URL(stack.dashboardUrl).port}`);
}

/** The one shell command of `block` that starts with `start` (with its `\` continuation lines). */
function command(block: string, start: string): string {
  const lines = block.split("\n");
  const first = lines.findIndex((line) => line.startsWith(start));
  if (first < 0) throw new Error(`${README}: no command starting with ${JSON.stringify(start)} under "${SECTION}"`);
  let last = first;
  while (lines[last]!.endsWith("\\")) last++;
  return lines.slice(first, last + 1).join("\n");
}

const subscription = (e2e: E2E) => e2e.api.get<Subscription>("/api/billing/subscription");

/** Waits until the project's subscription is on `tier`; returns it. */
const onTier = (e2e: E2E, tier: Subscription["tier"]) =>
  poll(
    `the project on ${tier}`,
    async () => {
      const sub = await subscription(e2e);
      return sub.tier === tier ? sub : undefined;
    },
    30_000,
  );

/** Registers the billing tests. */
export function billingSuite(e2e: GetE2E): void {
  describe("billing with the Stripe stand-in (issue 6)", () => {
    const block = () => codeBlock(README, SECTION, "sh", "/api/billing/checkout");
    let checkout: { id: string; url: string } | undefined;
    let paid: Subscription | undefined;

    it("Should run the Stripe stand-in inside `npm run dev` with no billing variable set, as the README says, and list it as a stand-in", () => {
      const ctx = e2e();
      // The README's block starts the stack with `npm run dev` alone, no variables before it.
      expect(block()).toMatch(/^npm run dev\b/m);
      expect(block()).not.toMatch(/^[A-Z_]+=\S+ .*npm run dev/m);
      // The summary block names the stand-in with its URL, and Stripe among the stand-ins.
      expect(ctx.stack.output()).toMatch(new RegExp(`^\\s*Stripe\\s+stand-in ${ctx.stripe.url.replaceAll(".", "\\.")}\\b`, "m"));
      expect(ctx.stack.output()).toMatch(/^\s*stand-ins\s+.*Stripe \(no STRIPE_SECRET_KEY configured\)/m);
      // The test values the README gives are the ones the stand-in runs with.
      for (const value of Object.values(ctx.stripe.vars)) expect(readmeText()).toContain(value.replace(/_(pro|team|enterprise)$/, ""));
    });

    it("Should show the demo project on free (limit 10000, no Stripe customer) before any checkout", async () => {
      const ctx = e2e();
      expect(await subscription(ctx)).toMatchObject({
        project_id: ctx.stack.projectId,
        tier: "free",
        status: "active",
        limit: 10_000,
        payment_customer_id: null,
        payment_subscription_id: null,
      });
    });

    it("Should answer the README's checkout curl for pro with the stand-in's checkout URL", async () => {
      const ctx = e2e();
      const curl = localize(command(block(), "curl "), ctx);
      expect(curl).toContain('"tier":"pro"');
      const run = await runProgram("bash", ["-e", "-c", curl], {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH, HOME: tmpdir(), SERVICE_API_KEY: ctx.stack.key },
        timeoutMs: 60_000,
      });
      expect(run.code, describeRun("the README's checkout curl", run)).toBe(0);
      const answers = jsonValues(run.stdout) as { id: string; url: string }[];
      expect(answers, run.stdout).toHaveLength(1);
      checkout = answers[0]!;
      expect(checkout.id).toMatch(/^cs_test_/);
      expect(checkout.url).toBe(`${ctx.stripe.url}/c/pay/${checkout.id}`);
      // The README's sample answer shows that URL.
      expect(localize(block(), ctx)).toContain(`"url":"${ctx.stripe.url}/c/pay/cs_test_…"`);
    });

    it("Should put the project on pro (limit 500000) once the checkout is paid with `curl -X POST <url>`, from the signed events the stand-in delivered", async () => {
      const ctx = e2e();
      expect(checkout, "the previous test started a checkout").toBeDefined();
      expect(readmeText()).toContain("(or `curl -X POST <url>`)");
      const before = await subscription(ctx);
      const run = await runProgram("curl", ["-s", "-X", "POST", checkout!.url], {
        cwd: tmpdir(),
        env: { PATH: process.env.PATH, HOME: tmpdir() },
        timeoutMs: 60_000,
      });
      expect(run.code, describeRun("curl -X POST <checkout url>", run)).toBe(0);

      // Each of the three events reached POST /webhook/payment, which accepted its signature.
      const delivered = await poll(
        "the stand-in to report three deliveries",
        async () => {
          const lines = [...ctx.stripe.output().matchAll(/stripe stand-in: (\S+) evt_\w+ -> (\S+)$/gm)].map((m) => [m[1], m[2]]);
          return lines.length >= 3 ? lines : undefined;
        },
        30_000,
      );
      expect(delivered, ctx.stripe.output()).toEqual([
        ["checkout.session.completed", "200"],
        ["customer.subscription.created", "200"],
        ["invoice.paid", "200"],
      ]);
      paid = await onTier(ctx, "pro");
      expect(paid).toMatchObject({
        tier: "pro",
        status: "active",
        limit: 500_000,
        payment_customer_id: expect.stringMatching(/^cus_/),
        payment_subscription_id: expect.stringMatching(/^sub_/),
      });
      // invoice.paid started the subscription's first period, with the counter at zero.
      expect(paid.requests_this_period).toBe(0);
      expect(paid.period_start_at).not.toBe(before.period_start_at);
    });

    it("Should answer 400 to POST /webhook/payment without a valid signature and leave the subscription as it was", async () => {
      const ctx = e2e();
      expect(paid, "the previous test put the project on pro").toBeDefined();
      const secret = ctx.stripe.vars.PAYMENT_WEBHOOK_SECRET!;
      // What a valid signature would make a downgrade: the end of the project's subscription.
      const res = await fetch(`${ctx.stripe.url}/v1/subscriptions/${paid!.payment_subscription_id}`, {
        headers: { Authorization: `Bearer ${ctx.stripe.vars.STRIPE_SECRET_KEY}` },
      });
      expect(res.status).toBe(200);
      const sub = (await res.json()) as Stripe.Subscription;
      const payload = JSON.stringify(eventObject("customer.subscription.deleted", { ...sub, status: "canceled" }));
      const sign = (body: string, opts: { secret?: string; timestamp?: number } = {}) =>
        Stripe.webhooks.generateTestHeaderStringAsync({
          payload: body,
          secret: opts.secret ?? secret,
          ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
        });
      const forgeries: [string, string | undefined][] = [
        ["signed with another secret", await sign(payload, { secret: "whsec_not_this_endpoints_secret" })],
        ["changed after signing", await sign(payload.replace('"customer.subscription.deleted"', '"customer.subscription.updated"'))],
        ["signed 10 minutes ago (tolerance 5)", await sign(payload, { timestamp: Math.floor(Date.now() / 1000) - 600 })],
        ["without a signature header", undefined],
      ];
      for (const [what, header] of forgeries) {
        const answer = await fetch(`${ctx.stack.apiUrl}/webhook/payment`, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...(header ? { "Stripe-Signature": header } : {}) },
          body: payload,
        });
        const body = await answer.text();
        expect(answer.status, `${what}: ${body}`).toBe(400);
        expect(JSON.parse(body), what).toEqual({ detail: expect.any(String) });
      }
      expect(await subscription(ctx)).toEqual(paid);
    });

    it("Should put the project back on free (limit 10000) when the subscription is cancelled through the stand-in (signed customer.subscription.deleted)", async () => {
      const ctx = e2e();
      expect(paid, "a previous test put the project on pro").toBeDefined();
      expect(await subscription(ctx), "still on pro before the cancel").toEqual(paid);
      // "POST http://127.0.0.1:12111/__stand-in/subscriptions/<sub_id>/{update,cancel,...}"
      const route = /`POST (http:\/\/\S+\/__stand-in\/subscriptions\/)<sub_id>\/\{([a-z,-]+)\}`/.exec(readmeText());
      expect(route, "the README names the stand-in's subscription routes").not.toBeNull();
      expect(route![2]!.split(",")).toContain("cancel");
      const url = `${localize(route![1]!, ctx)}${paid!.payment_subscription_id}/cancel`;
      const res = await fetch(url, { method: "POST" });
      const text = await res.text();
      expect(res.status, text).toBe(200);
      const { deliveries } = JSON.parse(text) as { deliveries: { type: string; status: number | null; body: string }[] };
      expect(deliveries.map((d) => [d.type, d.status, d.body])).toEqual([
        ["customer.subscription.deleted", 200, expect.stringContaining('"outcome":"applied"')],
      ]);

      expect(await onTier(ctx, "free")).toMatchObject({
        tier: "free",
        status: "canceled",
        limit: 10_000,
        payment_customer_id: paid!.payment_customer_id,
        payment_subscription_id: null,
      });
    });
  });
}
