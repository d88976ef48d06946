/**
 * POST /webhook/payment: Stripe's webhook (docs/interface.md sections 4.8 and 5.7). The raw body is
 * verified before anything is read from it (../billing/payment-webhook-signature.ts); a request that fails
 * verification answers 400 and touches no row. A verified event is processed once
 * (../billing/payment-webhook-events.ts) and answered 200, also when it is a duplicate, out of date,
 * or of a type this service ignores, so Stripe stops redelivering it. Public route: the
 * signature is its authentication (`security: []` in the OpenAPI document).
 */
import { z } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import { signatureHeader, verifyPaymentWebhook } from "../../../../src/billing/payment-webhook-signature";
import { createStripeClient } from "../../../../src/billing/stripe";
import { processPaymentWebhookEvent } from "../../../../src/billing/payment-webhook-events";
import { HANDLED_EVENT_TYPES } from "../../../../src/billing/effects";
import { PAYMENT_WEBHOOK_OUTCOMES } from "../../../../src/enums";
import { ApiError } from "../../../../src/http/errors";
import { database } from "../../../../src/http/database";
import { createRouter, errorResponse } from "./openapi";
import { logInfo } from "../../../../src/logger";

/** Largest accepted event body, in bytes (Stripe's events are a few KB). */
export const PAYMENT_WEBHOOK_MAX_BYTES = 512 * 1024;

const PATH = "/webhook/payment";

const ReceivedSchema = z
  .object({
    received: z.literal(true),
    outcome: z.enum([...PAYMENT_WEBHOOK_OUTCOMES, "duplicate"]).openapi({
      description: "applied, recorded, stale (older than the state applied), unmatched (no project), ignored, or duplicate (event id seen before)",
    }),
  })
  .openapi("PaymentWebhookReceived");

const router = createRouter();

// Documented, but served by a plain handler: the body must stay raw bytes for verification.
router.openAPIRegistry.registerPath({
  method: "post",
  path: PATH,
  tags: ["billing"],
  summary: "Stripe webhook (not to be called directly)",
  security: [],
  description: `Verified with Stripe's signature scheme against PAYMENT_WEBHOOK_SECRET. Handled event types: ${HANDLED_EVENT_TYPES.join(", ")}; others are acknowledged and ignored.`,
  request: {
    headers: z.object({
      "Stripe-Signature": z.string().optional().openapi({ description: "t=<unix seconds>,v1=<hex HMAC-SHA256>", example: "t=1763683200,v1=5257a869..." }),
      "Provider-Signature": z
        .string()
        .optional()
        .openapi({ description: "The same value under the interface's name for it (accepted when Stripe-Signature is absent)" }),
    }),
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ id: z.string(), type: z.string(), created: z.number().int() }).openapi("PaymentWebhookEvent") } },
    },
  },
  responses: {
    200: { description: "Accepted (also duplicates and ignored types)", content: { "application/json": { schema: ReceivedSchema } } },
    400: errorResponse("Missing or invalid signature, timestamp outside the tolerance, or not an event"),
    413: errorResponse(`Body larger than ${PAYMENT_WEBHOOK_MAX_BYTES} bytes`),
    503: errorResponse("The webhook is not configured, or the database or Stripe is unavailable (Stripe retries)"),
  },
});

/** Registers POST /webhook/payment. */
export const paymentWebhookRoutes = router.post(
  PATH,
  database(),
  bodyLimit({ maxSize: PAYMENT_WEBHOOK_MAX_BYTES, onError: (c) => c.json({ detail: `event body is larger than ${PAYMENT_WEBHOOK_MAX_BYTES} bytes` }, 413) }),
  async (c) => {
    const secret = c.var.config.paymentWebhookSecret;
    if (!secret) throw new ApiError(503, "the payment webhook is not configured on this deployment");
    const body = new Uint8Array(await c.req.arrayBuffer());
    const event = await verifyPaymentWebhook(body, signatureHeader(c.req.raw.headers), secret);
    const result = await processPaymentWebhookEvent(c.var.db, event, { prices: c.var.config.prices, stripe: createStripeClient(c.var.config.stripe) });
    logInfo("payment webhook", { event: event.id, type: event.type, outcome: result.outcome, project_id: result.projectId });
    return c.json({ received: true as const, outcome: result.outcome }, 200);
  },
);
