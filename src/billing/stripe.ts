/**
 * The Stripe client for Workers: Stripe's Node library with its fetch-based HTTP client
 * (`Stripe.createFetchHttpClient()`; Workers have no `node:https`), as Stripe documents for
 * Cloudflare Workers. `STRIPE_API_BASE` points it at another server (the local stand-in of
 * packages/stripe-stand-in) for tests and offline development.
 */
import Stripe from "stripe";
import { ApiError, unavailable } from "../http/errors";
import { logInfo } from "../logger";

/** What the client is built from (`STRIPE_SECRET_KEY`, `STRIPE_API_BASE`; src/config/api.ts). */
export interface StripeConfig {
  /** Secret API key (`sk_live_...` / `sk_test_...`). Unset: billing calls answer 503. */
  secretKey?: string | undefined;
  /** Base URL of the Stripe API, e.g. `http://127.0.0.1:12111`; unset: `https://api.stripe.com`. */
  apiBase?: string | undefined;
}

/** Per-call timeout of Stripe API requests, in milliseconds (the library's default is 80 s). */
const TIMEOUT_MS = 15_000;

/** `host`, `port` and `protocol` options for a base URL such as `http://127.0.0.1:12111`. */
export function apiBaseOptions(base: string | undefined): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  if (!base?.trim()) return {};
  const url = new URL(base.trim());
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`STRIPE_API_BASE must be an http(s) URL, got ${base}`);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? "80" : "443"), protocol };
}

/**
 * A Stripe client, or null when `STRIPE_SECRET_KEY` is not set. Network retries (one, the
 * library's default) are safe: every POST carries an idempotency key.
 * Throws on a malformed `STRIPE_API_BASE`.
 */
export function createStripeClient(config: StripeConfig): Stripe | null {
  const key = config.secretKey?.trim();
  if (!key) return null;
  return new Stripe(key, {
    httpClient: Stripe.createFetchHttpClient(),
    timeout: TIMEOUT_MS,
    ...apiBaseOptions(config.apiBase),
  });
}

/** The client, or a 503 `ApiError` when billing is not configured on this deployment. */
export function requireStripe(config: StripeConfig): Stripe {
  const stripe = createStripeClient(config);
  if (!stripe) throw new ApiError(503, "billing is not configured on this deployment");
  return stripe;
}

/** True for Stripe's "no such object" error (HTTP 404, code `resource_missing`). */
export function isResourceMissing(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && (err.statusCode === 404 || err.code === "resource_missing");
}

/**
 * True when Stripe refused a request because the customer it names does not exist (code
 * `resource_missing` on the `customer` parameter, "No such customer: 'cus_...'"): deleted in
 * Stripe's dashboard, or a test-mode customer that is gone.
 */
export function isMissingCustomer(err: unknown): boolean {
  return err instanceof Stripe.errors.StripeError && err.code === "resource_missing" && (err.param === "customer" || /\bcustomer\b/i.test(err.message));
}

/**
 * Translates a failed Stripe call into the API's error: Stripe unreachable, rate limiting or a
 * Stripe-side failure -> 503; a refused request (bad key, unknown price or customer) -> 502,
 * since the cause is this deployment's configuration, not the caller. Anything else is
 * returned unchanged (rendered as 500). Stripe's error types:
 * https://docs.stripe.com/error-handling#error-types
 */
export function providerError(err: unknown): unknown {
  if (!(err instanceof Stripe.errors.StripeError)) return err;
  logInfo("stripe call failed", { type: err.type, code: err.code, status: err.statusCode, request_id: err.requestId });
  if (err instanceof Stripe.errors.StripeConnectionError || err instanceof Stripe.errors.StripeRateLimitError) return unavailable("the payment provider");
  if (err instanceof Stripe.errors.StripeAPIError || (err.statusCode ?? 0) >= 500) return unavailable("the payment provider");
  return new ApiError(502, `the payment provider refused the request (${err.code ?? err.type})`);
}
