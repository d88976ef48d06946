/**
 * Alert webhooks (docs/webhooks.md): `POST /api/webhooks`, `GET /api/webhooks`,
 * `DELETE /api/webhooks/{id}`, `POST /api/webhooks/{id}/test`, `GET /api/webhooks/{id}/deliveries`.
 * The project comes from the API key (or `project_id` with the internal secret); another
 * project's endpoint answers 404. URLs pass the SSRF guard (src/alerts/url-guard.ts) or 422.
 * The list shows an API key without the `admin` scope each URL redacted to its origin
 * (`redactedUrl`, src/alerts/url-redact.ts): a webhook URL is often a credential. The internal
 * secret (the dashboard server) gets whole URLs and redacts by role itself.
 */
import type { z } from "@hono/zod-openapi";
import { uuidv7 } from "uuidv7";
import { eventBody, WEBHOOK_TEST } from "../../../../src/alerts/events";
import { attemptDelivery, newSigningSecret } from "../../../../src/alerts/send";
import { refuseWebhookUrl } from "../../../../src/alerts/url-guard";
import { redactedUrl } from "../../../../src/alerts/url-redact";
import {
  type AlertDelivery,
  type AlertEndpoint,
  createEndpoint,
  deleteEndpoint,
  getEndpoint,
  insertTestDelivery,
  listDeliveries,
  listEndpoints,
} from "../../../../src/db/alerts";
import { ApiError, notFound, orNotFound } from "../../../../src/http/errors";
import { isoOrNull } from "../../../../src/util";
import { DeliveriesQuery, EndpointParams } from "./alert-webhook-schemas";
import { CreatedEndpointSchema, DeliverySchema, EndpointInput, EndpointSchema } from "./schemas";
import { createRouter, jsonBody, jsonResponse, pageOf, projectRoutesTagged } from "./openapi";
import { PaginationQuery, ProjectIdQuery } from "./queries";

const route = projectRoutesTagged("webhooks");

const createRouteDef = route("post", "/api/webhooks", "admin", {
  summary: "Create an alert endpoint; the answer carries its signing secret, shown once",
  request: { query: ProjectIdQuery, body: jsonBody(EndpointInput) },
  responses: { 201: jsonResponse(CreatedEndpointSchema, "The endpoint and its secret") },
});

const listRouteDef = route.list("/api/webhooks", { query: PaginationQuery.extend(ProjectIdQuery.shape) }, pageOf(EndpointSchema, "AlertEndpointPage"), {
  summary: "List the project's alert endpoints, oldest first (secrets are never listed)",
  description: "API keys without the `admin` scope see each `url` redacted to its scheme, host and port (`https://hooks.slack.com/…`).",
});

const deleteRouteDef = route("delete", "/api/webhooks/{id}", "admin", {
  summary: "Delete an alert endpoint and its delivery records",
  request: { params: EndpointParams, query: ProjectIdQuery },
  responses: { 204: { description: "Deleted" } },
});

const testRouteDef = route("post", "/api/webhooks/{id}/test", "admin", {
  summary: "Send a signed `webhook.test` event to the endpoint now (one attempt, no retries) and record it",
  request: { params: EndpointParams, query: ProjectIdQuery },
  responses: { 200: jsonResponse(DeliverySchema, "The recorded attempt: `delivered`, or `dead` with the error") },
});

const deliveriesRouteDef = route.list(
  "/api/webhooks/{id}/deliveries",
  { params: EndpointParams, query: DeliveriesQuery },
  pageOf(DeliverySchema, "AlertDeliveryPage"),
  {
    summary: "Recent deliveries to an endpoint, newest first, including dead-letter records (state `dead`)",
  },
);

/** An endpoint row as JSON, without its secret. */
function endpointJson({ secret: _secret, ...e }: AlertEndpoint): z.infer<typeof EndpointSchema> {
  return { ...e, created_at: e.created_at.toISOString() };
}

/** A delivery row as JSON. */
function deliveryJson(d: AlertDelivery): z.infer<typeof DeliverySchema> {
  return { ...d, created_at: d.created_at.toISOString(), last_attempt_at: isoOrNull(d.last_attempt_at), next_attempt_at: isoOrNull(d.next_attempt_at) };
}

/** Registers the alert webhook routes. */
export const alertWebhookRoutes = createRouter()
  .openapi(createRouteDef, async (c) => {
    const input = c.req.valid("json");
    const refused = refuseWebhookUrl(input.url, c.var.config.alerts);
    if (refused) throw new ApiError(422, `url: ${refused}`);
    const scorers = input.scorers ? [...new Set(input.scorers)] : null;
    const row = await createEndpoint(c.var.db, c.var.projectId, { ...input, scorers, secret: newSigningSecret() });
    return c.json({ ...endpointJson(row), secret: row.secret }, 201);
  })
  .openapi(listRouteDef, async (c) => {
    const q = c.req.valid("query");
    const { items, total } = await listEndpoints(c.var.db, c.var.projectId, q);
    const whole = c.var.scopes.includes("admin");
    const shown = items.map((e) => (whole ? endpointJson(e) : { ...endpointJson(e), url: redactedUrl(e.url) }));
    return c.json({ items: shown, total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(deleteRouteDef, async (c) => {
    if (!(await deleteEndpoint(c.var.db, c.var.projectId, c.req.valid("param").id.toLowerCase()))) throw notFound("webhook endpoint");
    return c.body(null, 204);
  })
  .openapi(testRouteDef, async (c) => {
    const endpoint = orNotFound(await getEndpoint(c.var.db, c.var.projectId, c.req.valid("param").id.toLowerCase()), "webhook endpoint");
    const id = uuidv7();
    const event = {
      type: WEBHOOK_TEST,
      data: { project_id: endpoint.project_id, endpoint_id: endpoint.id, message: "Sightline test event: this endpoint is set up." },
    } as const;
    const outcome = await attemptDelivery(endpoint, { id, body: eventBody(event, endpoint.format, new Date()) }, c.var.config.alerts);
    const row = await insertTestDelivery(
      c.var.db,
      endpoint,
      id,
      outcome.ok
        ? { state: "delivered", attempts: 1, last_status: outcome.status, last_error: null }
        : { state: "dead", attempts: 1, last_status: outcome.status, last_error: outcome.error },
    );
    return c.json(deliveryJson(row), 200);
  })
  .openapi(deliveriesRouteDef, async (c) => {
    const q = c.req.valid("query");
    const endpoint = orNotFound(await getEndpoint(c.var.db, c.var.projectId, c.req.valid("param").id.toLowerCase()), "webhook endpoint");
    const { items, total } = await listDeliveries(c.var.db, endpoint.id, q);
    return c.json({ items: items.map(deliveryJson), total, page: q.page, page_size: q.page_size }, 200);
  });
