/**
 * Where Stripe may send a customer back to: `success_url`, `cancel_url` (Checkout) and
 * `return_url` (Billing Portal) must lie on an origin of the `BILLING_RETURN_ORIGINS` allow-list,
 * so the API cannot be used to bounce customers from a Stripe page to an arbitrary site. The
 * list is parsed with the worker's config (src/config/api.ts: comma- or space-separated origins).
 */
import { ApiError } from "../http/errors";

/**
 * Checks that `url` (already a valid URL) is http(s) on an allowed origin; throws 422 naming
 * `field` otherwise. Returns `url` unchanged (Checkout's `{CHECKOUT_SESSION_ID}` placeholder
 * must reach Stripe as written, not percent-encoded).
 */
export function allowedReturnUrl(field: string, url: string, allowed: Set<string>): string {
  const { origin, protocol } = new URL(url);
  if (protocol !== "http:" && protocol !== "https:") throw new ApiError(422, `${field}: must be an http(s) URL`);
  if (!allowed.has(origin))
    throw new ApiError(
      422,
      allowed.size
        ? `${field}: origin ${origin} is not allowed (allowed: ${[...allowed].join(", ")})`
        : `${field}: no return origins are configured on this deployment (BILLING_RETURN_ORIGINS)`,
    );
  return url;
}
