/** GET /api/billing/subscription: tier and usage of a project (interface spec, section 4). */
import { createRoute, z } from "@hono/zod-openapi";
import { tierLimits } from "../billing/tiers";
import { TIERS } from "../db/schema";
import { getSubscription } from "../db/queries";
import { notFound } from "../errors";
import { commonErrors, createRouter, notFoundResponse, ProjectIdQuery, projectSecurity } from "./openapi";

const SubscriptionSchema = z
  .object({
    project_id: z.uuid(),
    tier: z.enum(TIERS),
    status: z.string().openapi({ description: "Provider subscription status; `active` for free" }),
    limit: z.number().int().nullable().openapi({ description: "Requests per period; null means unlimited" }),
    requests_this_period: z.number().int(),
    period_start_at: z.string().openapi({ format: "date-time" }),
    period_reset_at: z.string().openapi({ format: "date-time" }),
    payment_customer_id: z.string().nullable(),
    payment_subscription_id: z.string().nullable(),
  })
  .openapi("Subscription");

const route = createRoute({
  method: "get",
  path: "/api/billing/subscription",
  tags: ["billing"],
  summary: "Current subscription tier and usage",
  security: projectSecurity,
  request: { query: ProjectIdQuery },
  responses: {
    200: { description: "The subscription", content: { "application/json": { schema: SubscriptionSchema } } },
    ...commonErrors,
    ...notFoundResponse,
  },
});

/** Registers the billing read route (checkout, portal and webhook come with the billing issue). */
export const billingRoutes = createRouter().openapi(route, async (c) => {
  const sub = await getSubscription(c.var.db, c.var.projectId);
  if (!sub) throw notFound("project");
  return c.json(
    {
      project_id: sub.project_id,
      tier: sub.tier,
      status: sub.status,
      limit: tierLimits(c.env.TIER_LIMITS)[sub.tier],
      requests_this_period: sub.requests_this_period,
      period_start_at: sub.period_start_at.toISOString(),
      period_reset_at: sub.period_reset_at.toISOString(),
      payment_customer_id: sub.payment_customer_id,
      payment_subscription_id: sub.payment_subscription_id,
    },
    200,
  );
});
