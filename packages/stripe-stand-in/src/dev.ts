/**
 * The Stripe stand-in as the local stack uses it: its documented test values (README
 * "Billing") and a start function that serves it and forwards its signed events to the API's
 * webhook, like `stripe listen --forward-to`. Used by `npm run dev` (in-process, when no
 * STRIPE_SECRET_KEY is configured) and `npm run stripe:stand-in` (on its own).
 */
import { startStripeStandIn, type StandInPrice } from "./server.ts";

/** Default port of the stand-in (README "Billing"). */
export const STAND_IN_PORT = 12111;

/**
 * The stand-in's test values: any `sk_test_` key works against it; the prices are its own ids;
 * the signing secret is public and for local development only. Each can be overridden by the
 * variable of the same name.
 */
export const STAND_IN_VALUES = {
  STRIPE_SECRET_KEY: "sk_test_standin",
  STRIPE_PRICE_PRO: "price_standin_pro",
  STRIPE_PRICE_TEAM: "price_standin_team",
  STRIPE_PRICE_ENTERPRISE: "price_standin_enterprise",
  PAYMENT_WEBHOOK_SECRET: "whsec_standin_local_development_only",
} as const;

/** Monthly amounts of the paid tiers in cents (the stand-in's catalogue; Stripe's is yours). */
const AMOUNTS = {
  STRIPE_PRICE_PRO: [4900, "Sightline Pro"],
  STRIPE_PRICE_TEAM: [19900, "Sightline Team"],
  STRIPE_PRICE_ENTERPRISE: [99900, "Sightline Enterprise"],
} as const;

/** Options of `startDevStripe`. */
export interface DevStripeOptions {
  port: number;
  /** The API's POST /webhook/payment, where signed events go. */
  forwardTo: string;
  /** Origins checkout and portal may return to (BILLING_RETURN_ORIGINS). */
  returnOrigins: string[];
  /** Overrides of STAND_IN_VALUES (e.g. from the environment). */
  env?: Record<string, string | undefined>;
  log?: (line: string) => void;
  /** JSON file keeping the stand-in's objects across restarts (e.g. `.data/stripe-stand-in.json`). */
  stateFile?: string;
}

/** A running stand-in and the variables that point the API worker at it. */
export interface DevStripe {
  url: string;
  /** STRIPE_API_BASE, STRIPE_SECRET_KEY, the prices, PAYMENT_WEBHOOK_SECRET, BILLING_RETURN_ORIGINS. */
  vars: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the stand-in with its test values (or `env`'s) and returns the API's variables for it. */
export async function startDevStripe(opts: DevStripeOptions): Promise<DevStripe> {
  const values = Object.fromEntries(Object.entries(STAND_IN_VALUES).map(([k, v]) => [k, opts.env?.[k] || v])) as Record<keyof typeof STAND_IN_VALUES, string>;
  const prices: StandInPrice[] = Object.entries(AMOUNTS).map(([k, [unitAmount, nickname]]) => ({
    id: values[k as keyof typeof AMOUNTS],
    unitAmount,
    nickname,
  }));
  const standIn = await startStripeStandIn({
    port: opts.port,
    prices,
    webhook: { url: opts.forwardTo, secret: values.PAYMENT_WEBHOOK_SECRET },
    ...(opts.stateFile ? { stateFile: opts.stateFile } : {}),
    ...(opts.log ? { log: opts.log } : {}),
  });
  return {
    url: standIn.url,
    vars: { STRIPE_API_BASE: standIn.url, ...values, BILLING_RETURN_ORIGINS: opts.returnOrigins.join(",") },
    close: () => standIn.close(),
  };
}

/** `origin` as both 127.0.0.1 and localhost (a browser may use either). */
export const bothHosts = (port: number): string[] => [`http://127.0.0.1:${port}`, `http://localhost:${port}`];
