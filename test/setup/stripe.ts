/**
 * Node side of the billing tests: starts the local Stripe API stand-in
 * (packages/stripe-stand-in) once per vitest process and returns the workers project's
 * billing bindings pointing at it. Tests sign webhook events themselves, so the stand-in
 * delivers none.
 */
import { startStripeStandIn, type StripeStandIn } from "@sightline/stripe-stand-in";
import { TEST_PRICES, TEST_RETURN_ORIGIN, TEST_STRIPE_SECRET_KEY, TEST_UNKNOWN_PRICE, TEST_WEBHOOK_SECRET } from "./stripe-constants.ts";

let started: Promise<StripeStandIn> | undefined;

/** Bindings of the billing configuration, with `STRIPE_API_BASE` at the running stand-in. */
export async function stripeTestBindings(): Promise<Record<string, string>> {
  started ??= startStripeStandIn({
    prices: [
      { id: TEST_PRICES.pro, unitAmount: 4900, nickname: "Pro" },
      { id: TEST_PRICES.team, unitAmount: 19900, nickname: "Team" },
      { id: TEST_PRICES.enterprise, unitAmount: 99900, nickname: "Enterprise" },
      { id: TEST_UNKNOWN_PRICE, unitAmount: 500, nickname: "Something else" },
    ],
    unref: true,
  });
  const standIn = await started;
  return {
    STRIPE_API_BASE: standIn.url,
    STRIPE_SECRET_KEY: TEST_STRIPE_SECRET_KEY,
    PAYMENT_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: TEST_PRICES.pro,
    STRIPE_PRICE_TEAM: TEST_PRICES.team,
    STRIPE_PRICE_ENTERPRISE: TEST_PRICES.enterprise,
    BILLING_RETURN_ORIGINS: `${TEST_RETURN_ORIGIN}, http://localhost:3000`,
  };
}
