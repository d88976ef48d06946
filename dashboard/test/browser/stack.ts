/**
 * The stack behind the browser tests: the API worker under `wrangler dev` (billing pointed at
 * the in-process Stripe stand-in, which delivers its signed events to the API's webhook),
 * the dashboard under `wrangler pages dev` (scripts/lib/dashboard.ts, as `npm run dev` runs
 * it), on the test PostgreSQL of vitest's global setup. Own fixed ports (run under the
 * fixed-ports lock) and its own wrangler state and dev registry.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { startDashboard, type RunningDashboard } from "../../../scripts/lib/dashboard";
import { startStripeStandIn, type StripeStandIn } from "@sightline/stripe-stand-in";
import { startWorkers, type RunningWorkers } from "../../../scripts/lib/workers";

/** Ports of the browser-test stack. */
export const BROWSER_PORTS = { api: 8747, dashboard: 8748 };

const PRICES = { pro: "price_browser_pro", team: "price_browser_team", enterprise: "price_browser_enterprise" };

/** A running browser-test stack. */
export interface BrowserStack {
  apiUrl: string;
  dashboardUrl: string;
  stop(): Promise<void>;
}

/** Options of `startBrowserStack`: another test file's own ports, extra API variables. */
export interface BrowserStackOptions {
  ports?: { api: number; dashboard: number };
  /** Extra variables of the API worker, e.g. `{ WEBHOOK_ALLOW_LOOPBACK: "true" }`. */
  apiVars?: Record<string, string>;
  /** Run the scorer worker beside the API (its queue consumer: scoring and re-scoring jobs); off by default. */
  withScorer?: boolean;
}

/** Starts Stripe stand-in, API worker and dashboard; resolves once each answers. */
export async function startBrowserStack(databaseUrl: string, opts: BrowserStackOptions = {}): Promise<BrowserStack> {
  const ports = opts.ports ?? BROWSER_PORTS;
  const secret = randomBytes(32).toString("hex");
  const webhookSecret = `whsec_${randomBytes(16).toString("hex")}`;
  const apiUrl = `http://127.0.0.1:${ports.api}`;
  const dashboardUrl = `http://localhost:${ports.dashboard}`;
  // Each stack its own wrangler state and dev registry, so two test files' stacks stay apart.
  const persistTo = opts.ports ? `.wrangler/dashboard-browser-${ports.api}` : ".wrangler/dashboard-browser";
  let stripe: StripeStandIn | undefined;
  let workers: RunningWorkers | undefined;
  let dashboard: RunningDashboard | undefined;
  const stop = async () => {
    await dashboard?.stop();
    await workers?.stop();
    await stripe?.close();
  };
  try {
    stripe = await startStripeStandIn({
      prices: [
        { id: PRICES.pro, unitAmount: 4900, nickname: "Pro" },
        { id: PRICES.team, unitAmount: 19900, nickname: "Team" },
        { id: PRICES.enterprise, unitAmount: 99900, nickname: "Enterprise" },
      ],
      webhook: { url: `${apiUrl}/webhook/payment`, secret: webhookSecret },
    });
    workers = await startWorkers({
      databaseUrl,
      internalSecret: secret,
      apiPort: ports.api,
      withScorer: opts.withScorer ?? false,
      quiet: true,
      persistTo,
      vars: {
        STRIPE_API_BASE: stripe.url,
        STRIPE_SECRET_KEY: "sk_test_browser",
        PAYMENT_WEBHOOK_SECRET: webhookSecret,
        STRIPE_PRICE_PRO: PRICES.pro,
        STRIPE_PRICE_TEAM: PRICES.team,
        STRIPE_PRICE_ENTERPRISE: PRICES.enterprise,
        BILLING_RETURN_ORIGINS: dashboardUrl,
        ...opts.apiVars,
      },
    });
    dashboard = await startDashboard({ port: ports.dashboard, databaseUrl, internalSecret: secret, apiUrl, persistTo, quiet: true });
  } catch (err) {
    await stop();
    throw err;
  }
  return { apiUrl, dashboardUrl, stop };
}

/** Serves the page, its assets and /api/projects once, so tests meet a running stack. */
export async function warmUp(dashboardUrl: string): Promise<void> {
  const html = await (await fetch(`${dashboardUrl}/`)).text();
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
  for (const path of [...assets, "/api/projects"]) await (await fetch(`${dashboardUrl}${path}`)).body?.cancel();
}

/** One query on the stack's database (for what the stack does not run: the scorer, seeding). */
export async function queryDb<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}
