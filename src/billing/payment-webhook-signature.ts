/**
 * Verifies a payment webhook with Stripe's library: `Stripe-Signature` (what Stripe sends) or
 * `Provider-Signature` (docs/interface.md section 5.7) carries `t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "t.body">`, checked against `PAYMENT_WEBHOOK_SECRET` with Web Crypto (SubtleCrypto, hence the
 * async `constructEventAsync`). Stripe's scheme:
 * https://docs.stripe.com/webhooks#verify-events
 */
import Stripe from "stripe";
import { ApiError } from "../http/errors";
import { storableJson, TooDeepError, tooDeep } from "../ingest/input";
import { isObject } from "../util";

/** Header names that carry the signature, in order of preference. */
export const SIGNATURE_HEADERS = ["Stripe-Signature", "Provider-Signature"] as const;

/** Largest accepted age of the signed timestamp, in seconds (Stripe's default, 5 minutes). */
export const TOLERANCE_SECONDS = 300;

const cryptoProvider = Stripe.createSubtleCryptoProvider();

/** The signature header's value: `Stripe-Signature`, else `Provider-Signature`. */
export function signatureHeader(headers: Headers): string | undefined {
  for (const name of SIGNATURE_HEADERS) {
    const value = headers.get(name);
    if (value) return value;
  }
  return undefined;
}

/**
 * The verified event of a raw request body. Throws a 400 `ApiError` when the header is
 * missing, no signature matches (tampered body, wrong secret), the timestamp is older than
 * `TOLERANCE_SECONDS`, or the signed body is not an event (id, type, created, data.object).
 * Text PostgreSQL cannot store is replaced (../input.ts); nesting too deep answers 422.
 */
export async function verifyPaymentWebhook(body: Uint8Array, header: string | undefined, secret: string): Promise<Stripe.Event> {
  if (!header) throw new ApiError(400, `missing signature header: send ${SIGNATURE_HEADERS.join(" or ")}`);
  let event: Stripe.Event;
  try {
    event = await Stripe.webhooks.constructEventAsync(body, header, secret, TOLERANCE_SECONDS, cryptoProvider);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
      const stale = /tolerance/i.test(err.message);
      throw new ApiError(400, stale ? "signature timestamp is outside the tolerance of 300 seconds" : "invalid webhook signature");
    }
    throw new ApiError(400, "signed payload is not a webhook event"); // valid signature, but not JSON or a thin event
  }
  if (!isObject(event)) throw new ApiError(400, "signed payload is not a webhook event: not a JSON object");
  const { id, type, created, data } = event as Partial<Stripe.Event>;
  if (typeof id !== "string" || typeof type !== "string" || typeof created !== "number")
    throw new ApiError(400, "signed payload is not a webhook event: id, type and created are required");
  if (!isObject(data) || !isObject(data.object)) throw new ApiError(400, "signed payload is not a webhook event: data.object is required");
  // The input rule of every route (../input.ts): text PostgreSQL cannot store becomes U+FFFD.
  try {
    return storableJson(event).value as Stripe.Event;
  } catch (err) {
    if (err instanceof TooDeepError) throw tooDeep(err.path);
    throw err;
  }
}
