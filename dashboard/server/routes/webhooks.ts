/**
 * /api/projects/:projectId/webhooks: alert webhooks (docs/webhooks.md) for the dashboard, through
 * the API's /api/webhooks routes (typed client, internal secret). viewer: list endpoints and their
 * deliveries; admin: create (the secret appears only in that answer), send a test event, delete.
 * Viewers and members see each endpoint's URL redacted to its origin (`redactedUrl`,
 * src/alerts/url-redact.ts; a webhook URL is often a credential); admins and owners whole.
 * The create body is checked here with the API's own schema (422 naming the field); the API's
 * other refusals (the URL guard's 422, an unknown endpoint's 404) pass through with their
 * `{detail}`. A malformed endpoint id is 404, as an unknown one.
 */
import { Hono } from "hono";
import { redactedUrl } from "../../../src/alerts/url-redact";
import { roleAtLeast } from "../../../src/enums";
import { EndpointInput } from "../../../workers/api/src/routes/schemas";
import type { CreatedWebhook, WebhookDelivery, WebhookDeliveryList, WebhookList } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { validate, validIds } from "../lib/validate";

const endpointIds = validIds({ projectId: "project", id: "webhook endpoint" });

/** Webhook routes, mounted at /api/projects/:projectId/webhooks. */
export const webhookRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => {
    const query = { project_id: c.var.project.id, page_size: "200" };
    const page = await unwrap(apiClient(c.var.config).api.webhooks.$get({ query }));
    const whole = roleAtLeast(c.var.project.role, "admin");
    return c.json({ items: page.items.map((e) => (whole ? e : { ...e, url: redactedUrl(e.url) })) } satisfies WebhookList, 200);
  })
  .post("/", projectAccess("admin"), validate("json", EndpointInput), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.webhooks.$post({ query, json: c.req.valid("json") }))) satisfies CreatedWebhook, 201);
  })
  .post("/:id/test", endpointIds, projectAccess("admin"), async (c) => {
    const args = { param: { id: c.req.valid("param").id }, query: { project_id: c.var.project.id } };
    return c.json((await unwrap(apiClient(c.var.config).api.webhooks[":id"].test.$post(args))) satisfies WebhookDelivery, 200);
  })
  .get("/:id/deliveries", endpointIds, projectAccess("viewer"), async (c) => {
    const args = { param: { id: c.req.valid("param").id }, query: { project_id: c.var.project.id, page_size: "50" } };
    const page = await unwrap(apiClient(c.var.config).api.webhooks[":id"].deliveries.$get(args));
    return c.json({ items: page.items, total: page.total } satisfies WebhookDeliveryList, 200);
  })
  .delete("/:id", endpointIds, projectAccess("admin"), async (c) => {
    const args = { param: { id: c.req.valid("param").id }, query: { project_id: c.var.project.id } };
    await unwrap(apiClient(c.var.config).api.webhooks[":id"].$delete(args));
    return c.body(null, 204);
  });
