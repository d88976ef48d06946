/**
 * Billing settings of the workerd tests (bindings set by test/setup/stripe.ts), importable from
 * both Node and workerd.
 */

/** A Stripe test-mode key the stand-in accepts. */
export const TEST_STRIPE_SECRET_KEY = "sk_test_sightline_workerd_tests";

/** Webhook signing secret of the tests (`whsec_` like a real one). */
export const TEST_WEBHOOK_SECRET = "whsec_sightline_workerd_tests_0123456789abcdef";

/** Configured price id per paid tier. */
export const TEST_PRICES = { pro: "price_test_pro", team: "price_test_team", enterprise: "price_test_enterprise" } as const;

/** A price the stand-in sells that is no configured tier. */
export const TEST_UNKNOWN_PRICE = "price_test_other_product";

/** The one origin checkout and portal may return to. */
export const TEST_RETURN_ORIGIN = "https://app.sightline.test";
