/**
 * /api/projects/:projectId/billing: the subscription and usage (viewer), Stripe Checkout and
 * the billing portal (admin), through the API's billing routes (interface spec, section 4).
 * Return URLs always point back to this dashboard's billing page.
 */
import { Hono } from "hono";
import { z } from "zod";
import type { DashboardBindings } from "../env";
import { callApi } from "../lib/api-client";
import { jsonBody } from "../lib/body";
import { projectAccess, requireSession } from "../lib/middleware";

const Checkout = z.object({ tier: z.enum(["pro", "team", "enterprise"]) });
const billingPage = (base: string, projectId: string, outcome?: string) =>
  `${new URL(base).origin}/p/${projectId}/billing${outcome ? `?checkout=${outcome}` : ""}`;

/** Billing routes, mounted at /api/projects/:projectId/billing. */
export const billingRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => c.json(await callApi(c.env, "/api/billing/subscription", { projectId: c.var.project.id }), 200))
  .post("/checkout", projectAccess("admin"), async (c) => {
    const { tier } = await jsonBody(c, Checkout);
    const id = c.var.project.id;
    const session = await callApi(c.env, "/api/billing/checkout", {
      method: "POST",
      projectId: id,
      body: { tier, success_url: billingPage(c.env.DASHBOARD_URL, id, "success"), cancel_url: billingPage(c.env.DASHBOARD_URL, id, "cancelled") },
    });
    return c.json(session, 200);
  })
  .post("/portal", projectAccess("admin"), async (c) => {
    const id = c.var.project.id;
    const session = await callApi(c.env, "/api/billing/portal", { method: "POST", projectId: id, body: { return_url: billingPage(c.env.DASHBOARD_URL, id) } });
    return c.json(session, 200);
  });
