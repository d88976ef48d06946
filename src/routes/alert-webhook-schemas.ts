/**
 * Request and response schemas of the alert webhook routes (./alert-webhooks.ts), derived from
 * the tables of src/db/alert-schema.ts where the JSON is the row.
 */
import { z } from "@hono/zod-openapi";
import { createSelectSchema } from "drizzle-zod";
import { ALERT_FORMATS, alertDeliveries, DELIVERY_STATES } from "../db/alert-schema";
import { SCORER_NAMES } from "../scoring/types";
import { PaginationQuery, ProjectIdQuery } from "./openapi";
import { instant } from "./schemas";

/** Body of POST /api/webhooks. Unknown fields are refused (422 naming them). */
export const EndpointInput = z
  .strictObject({
    url: z.url().max(2048).openapi({
      description: "Where events are POSTed: https, public host (http and loopback only under `npm run dev`)",
      example: "https://hooks.example.com/sightline",
    }),
    min_score: z.number().int().min(1).max(5).default(4).openapi({ description: "Alert on scores >= this (Likert 1-5)", example: 4 }),
    scorers: z
      .array(z.enum(SCORER_NAMES))
      .min(1)
      .optional()
      .openapi({ description: "Scorers that may alert; omitted: every scorer", example: ["content_safety", "jailbreak_detection"] }),
    format: z.enum(ALERT_FORMATS).default("standard").openapi({ description: "`standard`: Standard Webhooks JSON; `slack`: Slack incoming-webhook message" }),
  })
  .openapi("AlertEndpointInput");

/** An endpoint as listed (never with its secret). */
export const EndpointSchema = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    url: z.string(),
    min_score: z.number().int(),
    scorers: z.array(z.enum(SCORER_NAMES)).nullable().openapi({ description: "null: every scorer" }),
    format: z.enum(ALERT_FORMATS),
    created_at: instant,
  })
  .openapi("AlertEndpoint");

/** The create answer: the endpoint and its signing secret, shown this once. */
export const CreatedEndpointSchema = EndpointSchema.extend({
  secret: z.string().openapi({
    description: "Standard Webhooks signing secret (`whsec_` + base64). Shown only in this answer: store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("CreatedAlertEndpoint");

/** One delivery (an attempt record; `dead` is the dead-letter record). */
export const DeliverySchema = createSelectSchema(alertDeliveries, {
  event_type: (s) => s.openapi({ description: "`score.unsafe`, or `webhook.test` for POST /api/webhooks/{id}/test" }),
  score_id: (s) => s.openapi({ description: "The score that triggered it; null for a test event" }),
  attempts: (s) => s.openapi({ description: "HTTP attempts made so far" }),
  last_status: (s) => s.openapi({ description: "HTTP status of the last attempt; null when it got no answer" }),
  last_error: (s) => s.openapi({ description: "Why the last attempt failed (e.g. `HTTP 500`, `timeout after 10000 ms`)" }),
  created_at: instant,
  last_attempt_at: instant.nullable(),
  next_attempt_at: instant.nullable().openapi({ description: "When the next attempt is due (state `retrying`)" }),
}).openapi("AlertDelivery");

/** `{id}` of an endpoint. */
export const EndpointParams = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" }, description: "Endpoint id" }) });

/** Query of GET /api/webhooks/{id}/deliveries. */
export const DeliveriesQuery = PaginationQuery.extend(ProjectIdQuery.shape).extend({
  state: z.enum(DELIVERY_STATES).optional().openapi({ description: "Only deliveries in this state (`dead`: the dead-letter records)" }),
});
