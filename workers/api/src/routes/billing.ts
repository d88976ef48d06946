/**
 * Billing endpoints (docs/interface.md section 4.7): the subscription's tier and usage, a Stripe
 * Checkout session to subscribe, and a Stripe Billing Portal session for self-service. Open to
 * a project API key, or to the dashboard's internal secret with `?project_id=`.
 */
import { z } from "@hono/zod-openapi";
import { openPortal, startCheckout } from "../../../../src/billing/checkout";
import { activeGrace, type GraceColumns } from "../../../../src/billing/grace";
import { allowedReturnUrl } from "../../../../src/billing/return-urls";
import { requireStripe } from "../../../../src/billing/stripe";
import type { TierRetention } from "../../../../src/billing/tiers";
import { TIERS } from "../../../../src/enums";
import { getBillingAccount } from "../../../../src/db/billing";
import { orNotFound } from "../../../../src/http/errors";
import { iso } from "../../../../src/util";
import { SubscriptionSchema } from "./schemas";

export type { Subscription } from "./schemas";
import { createRouter, errorResponse, jsonBody, jsonResponse, projectRoutesTagged } from "./openapi";
import { ProjectIdQuery } from "./queries";

const returnUrl = (description: string) =>
  z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .openapi({ description: `${description}; its origin must be in BILLING_RETURN_ORIGINS` });

const CheckoutBody = z
  .object({
    tier: z.enum(TIERS).openapi({ description: "Tier to subscribe to: pro, team or enterprise", example: "pro" }),
    success_url: returnUrl("Where Stripe sends the customer after paying (may contain {CHECKOUT_SESSION_ID})"),
    cancel_url: returnUrl("Where Stripe sends the customer when they leave checkout"),
  })
  .openapi("CheckoutRequest");

const CheckoutSession = z
  .object({
    id: z.string().openapi({ example: "cs_test_a1b2c3" }),
    url: z.url().openapi({ description: "Stripe-hosted checkout page: redirect the customer here" }),
  })
  .openapi("CheckoutSession");

const PortalBody = z.object({ return_url: returnUrl("Where the portal's back link leads") }).openapi("PortalRequest");
const PortalSession = z.object({ url: z.url().openapi({ description: "Stripe-hosted billing portal: redirect the customer here" }) }).openapi("PortalSession");

const providerErrors = {
  502: errorResponse("Stripe refused the request (a configuration problem of this deployment)"),
  503: errorResponse("Billing is not configured, or the database or Stripe is unavailable"),
};
/** Errors of the routes that call Stripe on top of those of every project route: 409 for `conflict`, and Stripe's own (its 503 replaces the database's). */
const stripeErrors = (conflict: string) => ({ 409: errorResponse(conflict), ...providerErrors });
const route = projectRoutesTagged("billing");

/** The running retention grace of `sub` as the subscription route reports it, or null. */
function reportedGrace(sub: GraceColumns, retention: TierRetention) {
  const grace = activeGrace(sub, new Date());
  return grace ? { tier: grace.tier, retention_days: retention[grace.tier], until: iso(grace.until) } : null;
}

const routes = {
  subscription: route("get", "/api/billing/subscription", "read", {
    summary: "Current subscription tier and usage",
    request: { query: ProjectIdQuery },
    responses: { 200: jsonResponse(SubscriptionSchema, "The subscription") },
  }),
  checkout: route("post", "/api/billing/checkout", "admin", {
    summary: "Start a Stripe Checkout session to subscribe to a paid tier",
    description:
      "Creates (or reuses) the project's Stripe customer and a subscription-mode Checkout Session. The tier is applied when Stripe's webhook reports the paid subscription. While the project's last session for that tier is open (and was made for the same return URLs) it is handed back; a completed or expired one never is: a new session is created.",
    request: { query: ProjectIdQuery, body: jsonBody(CheckoutBody) },
    responses: {
      200: jsonResponse(CheckoutSession, "The checkout session"),
      ...stripeErrors("The project is already on that tier, or has a subscription (change plans in the portal)"),
    },
  }),
  portal: route("post", "/api/billing/portal", "admin", {
    summary: "Open a Stripe Billing Portal session (change plan, payment method, invoices, cancel)",
    request: { query: ProjectIdQuery, body: jsonBody(PortalBody) },
    responses: { 200: jsonResponse(PortalSession, "The portal session"), ...stripeErrors("The project has no Stripe customer yet (no checkout was started)") },
  }),
};

/** Registers the billing routes. */
export const billingRoutes = createRouter()
  .openapi(routes.subscription, async (c) => {
    const sub = orNotFound(await getBillingAccount(c.var.db, c.var.projectId), "project");
    return c.json(
      {
        project_id: sub.project_id,
        tier: sub.tier,
        status: sub.status,
        limit: c.var.config.tierLimits[sub.tier],
        requests_this_period: sub.requests_this_period,
        retention_days: c.var.config.tierRetention[sub.tier],
        retention_grace: reportedGrace(sub, c.var.config.tierRetention),
        period_start_at: iso(sub.period_start_at),
        period_reset_at: iso(sub.period_reset_at),
        payment_customer_id: sub.payment_customer_id,
        payment_subscription_id: sub.payment_subscription_id,
      },
      200,
    );
  })
  .openapi(routes.checkout, async (c) => {
    const body = c.req.valid("json");
    const origins = c.var.config.returnOrigins;
    const request = {
      projectId: c.var.projectId,
      tier: body.tier,
      successUrl: allowedReturnUrl("success_url", body.success_url, origins),
      cancelUrl: allowedReturnUrl("cancel_url", body.cancel_url, origins),
    };
    const session = await startCheckout(c.var.db, requireStripe(c.var.config.stripe), c.var.config.prices, request);
    return c.json(session, 200);
  })
  .openapi(routes.portal, async (c) => {
    const url = allowedReturnUrl("return_url", c.req.valid("json").return_url, c.var.config.returnOrigins);
    return c.json(await openPortal(c.var.db, requireStripe(c.var.config.stripe), c.var.projectId, url), 200);
  });
