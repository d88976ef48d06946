/**
 * Path and query schemas of the alert webhook routes (./alert-webhooks.ts). Their bodies'
 * schemas (`EndpointInput`, `EndpointSchema`, `CreatedEndpointSchema`, `DeliverySchema`) are in
 * ./schemas.ts with the API's other response schemas, where the dashboard's contract reads them.
 */
import { z } from "@hono/zod-openapi";
import { DELIVERY_STATES } from "../../../../src/enums";
import { PaginationQuery, ProjectIdQuery } from "./queries";

/** `{id}` of an endpoint. */
export const EndpointParams = z.object({ id: z.uuid().openapi({ param: { name: "id", in: "path" }, description: "Endpoint id" }) });

/** Query of GET /api/webhooks/{id}/deliveries. */
export const DeliveriesQuery = PaginationQuery.extend(ProjectIdQuery.shape).extend({
  state: z.enum(DELIVERY_STATES).optional().openapi({ description: "Only deliveries in this state (`dead`: the dead-letter records)" }),
});
