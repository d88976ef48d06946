/**
 * End to end under `npm run dev`, run as a user runs it: one stack (embedded PostgreSQL, the
 * API + scorer and proxy workers under wrangler dev) started from the repository root with a
 * fresh data directory and its own ports, the demo key read from what it prints, the remote
 * LLM providers stood in by local servers replaying recorded wire responses, and Stripe by
 * the stand-in `npm run dev` starts by itself (no billing variables are set).
 * The suites (one per issue) share the stack and run in order; the last test stops it with Ctrl-C.
 * Tests poll with generous deadlines and never assert latency (bench/e2e measures it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StackApi } from "./harness/api";
import { startDevStack, type DevStack } from "./harness/dev-stack";
import { startProviderStandIns, type ProviderStandIns } from "./harness/upstreams";
import { STAND_IN_VALUES } from "@sightline/stripe-stand-in/dev";
import { alertsSuite } from "./suites/alerts";
import { billingSuite } from "./suites/billing";
import type { E2E } from "./suites/context";
import { otlpSuite } from "./suites/otlp";
import { proxySuite } from "./suites/proxy";
import { quickStartSuite } from "./suites/quick-start";
import { readmeScriptsSuite } from "./suites/readme-scripts";
import { scoringSuite } from "./suites/scoring";
import type { Subscription } from "../../workers/api/src/routes/billing";

/** Ports of the e2e stack (a developer's `npm run dev` keeps 8787, 8080, 25431). */
const PORTS = {
  api: Number(process.env.SIGHTLINE_E2E_API_PORT ?? 8871),
  proxy: Number(process.env.SIGHTLINE_E2E_PROXY_PORT ?? 8872),
  pg: Number(process.env.SIGHTLINE_E2E_PG_PORT ?? 25471),
};
/** Port of the e2e stack's Stripe stand-in (a developer's `npm run dev` keeps 12111). */
const STRIPE_PORT = Number(process.env.SIGHTLINE_E2E_STRIPE_PORT ?? 8873);
/** Port of the e2e stack's sweep scorer session (a developer's keeps 8789). */
const SWEEP_PORT = Number(process.env.SIGHTLINE_E2E_SWEEP_PORT ?? 8874);
/** Port of the e2e stack's dashboard (a developer's `npm run dev` keeps 8788). */
const DASHBOARD_PORT = Number(process.env.SIGHTLINE_E2E_DASHBOARD_PORT ?? 8875);

let state: E2E | undefined;
let providers: ProviderStandIns | undefined;
let stack: DevStack | undefined;
let stopped = false;
/** The stack started again on the first one's data (issue 26.4). */
let restarted: DevStack | undefined;

const e2e = (): E2E => {
  if (!state) throw new Error("the e2e stack did not start (see the beforeAll error)");
  return state;
};

beforeAll(async () => {
  const echo = process.env.SIGHTLINE_E2E_ECHO === "1";
  providers = await startProviderStandIns();
  stack = await startDevStack({
    ports: PORTS,
    stripePort: STRIPE_PORT,
    sweepPort: SWEEP_PORT,
    dashboardPort: DASHBOARD_PORT,
    upstreamBaseUrl: providers.openaiUrl,
    echo,
  });
  const stripe = { url: stack.stripeUrl, vars: { ...STAND_IN_VALUES }, output: stack.output };
  state = { stack, providers, stripe, api: new StackApi(stack.apiUrl, stack.key) };
}, 300_000);

afterAll(async () => {
  if (stack && !stopped) await stack.stop();
  if (restarted) await restarted.stop();
  await providers?.close();
}, 60_000);

describe("npm run dev, end to end", () => {
  it("Should come up on a fresh data directory and print the demo project's key once", () => {
    const { stack } = e2e();
    expect(stack.output().match(/SERVICE_API_KEY=slk_/g)).toHaveLength(1);
    expect(stack.output()).toContain(`API http://localhost:${PORTS.api}`);
  });

  quickStartSuite(e2e);
  scoringSuite(e2e);
  alertsSuite(e2e);
  proxySuite(e2e);
  otlpSuite(e2e);
  readmeScriptsSuite(e2e);
  billingSuite(e2e);

  it("Should stop on Ctrl-C (SIGINT): npm run dev exits, none of its processes is left, its ports are free", async () => {
    const report = await e2e().stack.stop(30_000, true); // data kept for the restart below
    stopped = true;
    expect(report.leftovers).toEqual([]);
    expect(report.busyPorts).toEqual([]);
    expect(report.code !== null || report.signal !== null).toBe(true);
    expect(e2e().stack.output()).toContain("▶ stopped");
  });

  it("Should still open checkout and the billing portal after a restart: the Stripe stand-in kept its customers (issue 26.4)", async () => {
    const first = e2e().stack;
    restarted = await startDevStack({ ports: PORTS, stripePort: STRIPE_PORT, sweepPort: SWEEP_PORT, dashboardPort: DASHBOARD_PORT, restartOf: first });
    const api = new StackApi(restarted.apiUrl, first.key);
    // The billing suite left the demo project on free with a Stripe customer.
    const { payment_customer_id: customer } = await api.get<Subscription>("/api/billing/subscription");
    expect(customer).toMatch(/^cus_/);
    const known = await fetch(`${restarted.stripeUrl}/v1/customers/${customer}`, { headers: { Authorization: `Bearer ${STAND_IN_VALUES.STRIPE_SECRET_KEY}` } });
    expect(known.status).toBe(200);

    const post = (path: string, body: unknown) =>
      fetch(`${restarted!.apiUrl}${path}`, {
        method: "POST",
        headers: { "X-Service-Key": first.key, "Content-Type": "application/json" },
        body: JSON.stringify(body),
      });
    const origin = `http://localhost:${PORTS.api}`;
    const checkout = await post("/api/billing/checkout", { tier: "pro", success_url: `${origin}/ok`, cancel_url: `${origin}/no` });
    expect(checkout.status).toBe(200);
    expect(((await checkout.json()) as { url: string }).url).toMatch(new RegExp(`^${restarted.stripeUrl}/c/pay/cs_test_`));
    const portal = await post("/api/billing/portal", { return_url: `${origin}/billing` });
    expect(portal.status).toBe(200);
    const page = await fetch(((await portal.json()) as { url: string }).url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Billing portal");
    // The same customer: the stand-in knew it, so the API had nothing to replace.
    expect((await api.get<Subscription>("/api/billing/subscription")).payment_customer_id).toBe(customer);

    const report = await restarted.stop();
    restarted = undefined;
    expect(report.leftovers).toEqual([]);
  });
});
