/** GET /api/requests and GET /api/requests/{id} (interface spec, section 4). */
import { createRoute, z } from "@hono/zod-openapi";
import { getRequest, listRequests } from "../db/queries";
import { notFound } from "../errors";
import {
  commonErrors,
  createRouter,
  isoInstant,
  notFoundResponse,
  orderedRange,
  pageOf,
  PaginationQuery,
  ProjectIdQuery,
  access,
} from "./openapi";
import { RequestDetailSchema, RequestSummarySchema, withIsoDates } from "./schemas";

const ListQuery = orderedRange(
  PaginationQuery.extend(ProjectIdQuery.shape).extend({
    model: z.string().min(1).max(256).optional().openapi({ description: "Exact model name" }),
    start: isoInstant("Earliest created_at, inclusive (ISO-8601)"),
    end: isoInstant("Latest created_at, exclusive (ISO-8601)"),
  }),
);

const listRoute = createRoute({
  method: "get",
  path: "/api/requests",
  tags: ["requests"],
  summary: "List logged requests of a project, newest first",
  ...access.project(),
  request: { query: ListQuery },
  responses: {
    200: { description: "A page of requests", content: { "application/json": { schema: pageOf(RequestSummarySchema, "LlmRequestPage") } } },
    ...commonErrors,
    ...notFoundResponse,
  },
});

const getRoute = createRoute({
  method: "get",
  path: "/api/requests/{id}",
  tags: ["requests"],
  summary: "One request with its full bodies and its safety scores",
  ...access.project(),
  request: { params: z.object({ id: z.uuid() }), query: ProjectIdQuery },
  responses: {
    200: { description: "The request", content: { "application/json": { schema: RequestDetailSchema } } },
    ...commonErrors,
    ...notFoundResponse,
  },
});

/** Registers the request routes. */
export const requestRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const range = { start: q.start ? new Date(q.start) : undefined, end: q.end ? new Date(q.end) : undefined };
    const { items, total } = await listRequests(c.var.db, c.var.projectId, { ...range, model: q.model }, q);
    return c.json({ items: items.map(withIsoDates), total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(getRoute, async (c) => {
    const found = await getRequest(c.var.db, c.var.projectId, c.req.valid("param").id.toLowerCase());
    if (!found) throw notFound("request");
    return c.json({ ...withIsoDates(found), safety_scores: found.safety_scores.map(withIsoDates) }, 200);
  });
