/**
 * /api/projects/:projectId/billing: the subscription and usage (viewer), Stripe Checkout and
 * the billing portal (admin), through the API's billing routes (typed client, docs/interface.md
 * section 4.7). Return URLs always point back to this dashboard's billing page.
 */
import { Hono } from "hono";
import { z } from "zod";
import { TIERS } from "../../../src/enums";
import type { RedirectSession, Subscription } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { validate } from "../lib/validate";

/** A paid tier (checkout never sells `free`). */
const Checkout = z.object({ tier: z.enum(TIERS).exclude(["free"]) });
const billingPage = (base: string, projectId: string, outcome?: string) =>
  `${new URL(base).origin}/p/${projectId}/billing${outcome ? `?checkout=${outcome}` : ""}`;

/** Billing routes, mounted at /api/projects/:projectId/billing. */
export const billingRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.billing.subscription.$get({ query }))) satisfies Subscription, 200);
  })
  .post("/checkout", projectAccess("admin"), validate("json", Checkout), async (c) => {
    const id = c.var.project.id;
    const json = {
      tier: c.req.valid("json").tier,
      success_url: billingPage(c.var.config.dashboardUrl, id, "success"),
      cancel_url: billingPage(c.var.config.dashboardUrl, id, "cancelled"),
    };
    return c.json((await unwrap(apiClient(c.var.config).api.billing.checkout.$post({ query: { project_id: id }, json }))) satisfies RedirectSession, 200);
  })
  .post("/portal", projectAccess("admin"), async (c) => {
    const id = c.var.project.id;
    const json = { return_url: billingPage(c.var.config.dashboardUrl, id) };
    return c.json((await unwrap(apiClient(c.var.config).api.billing.portal.$post({ query: { project_id: id }, json }))) satisfies RedirectSession, 200);
  });
