/**
 * GET /api/requests (page-numbered, docs/interface.md section 4.3, or keyset), /api/requests/count,
 * /api/requests/export and /api/requests/{id}. The filters are shared (./request-query.ts).
 * The fixed paths are registered before `{id}` so they are not read as an id.
 */
import { z } from "@hono/zod-openapi";
import { countRequests, getRequest, listRequests, listRequestsKeyset, neighbours } from "../../../../src/db/requests";
import { ApiError, notFound } from "../../../../src/http/errors";
import { exportResponse } from "../../../../src/export/stream";
import { access, createRouter, jsonResponse, pageOf, projectErrors, routesTagged } from "./openapi";
import { assertReadAllowed, shownToCaller } from "./pii-access";
import { toFilters } from "./request-query";
import { historyJson, KeysetPageSchema, RequestDetailSchema, RequestSummarySchema, scoreJson, withIsoDates } from "./schemas";
import { CountQuery, ExportQuery, KeysetQuery, NeighboursQuery, PaginationQuery, RequestFilterQuery, RevealQuery, checkedFilters } from "./queries";

const ListQuery = checkedFilters(PaginationQuery.extend(RequestFilterQuery.shape).extend(KeysetQuery.shape).extend(RevealQuery.shape));

const route = routesTagged("requests");

const listRoute = route("get", "/api/requests", {
  summary: "List logged requests of a project, newest first",
  description:
    "Two modes. Page mode (`page`, `page_size`; the envelope of docs/interface.md section 4.3, with `total`). Keyset mode, chosen by any of `cursor`, `after`, `limit` or `ids`: " +
    "`{items, next_cursor, limit}` ordered by (created_at, id) descending, each row with its score chips, and no total (ask /api/requests/count). " +
    "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited).",
  ...access.project("read"),
  request: { query: ListQuery },
  responses: { 200: jsonResponse(z.union([pageOf(RequestSummarySchema, "LlmRequestPage"), KeysetPageSchema]), "A page of requests"), ...projectErrors },
});

const countRoute = route("get", "/api/requests/count", {
  summary: "Number of requests matching the filters (a separate call, so the list never waits for it)",
  ...access.project("read"),
  request: { query: CountQuery },
  responses: { 200: jsonResponse(z.object({ total: z.number().int() }).openapi("RequestCount"), "The count"), ...projectErrors },
});

const exportRoute = route("get", "/api/requests/export", {
  summary: "Every request matching the filters, streamed as CSV or JSONL, with PII masked",
  description:
    "Streams all matching rows (newest first) page by page from the database, so the size is not limited to one page. " +
    "Strings in the bodies have personal data found by the PII detectors replaced by `[KIND]` (e.g. `[EMAIL]`). " +
    "Each row carries its six scores and their review verdicts.",
  ...access.project("read"),
  request: { query: ExportQuery },
  responses: {
    200: { description: "The export", content: { "text/csv": { schema: z.string() }, "application/x-ndjson": { schema: z.string() } } },
    ...projectErrors,
  },
});

const getRoute = route("get", "/api/requests/{id}", {
  summary: "One request with its full bodies and its safety scores (with reviews)",
  description: "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited).",
  ...access.project("read"),
  request: { params: z.object({ id: z.uuid() }), query: NeighboursQuery },
  responses: { 200: jsonResponse(RequestDetailSchema, "The request"), ...projectErrors },
});

/** 422 for a keyset anchor that is no request of the project. */
const unknownAnchor = () => new ApiError(422, "cursor: no request of this project has this id");

/** Registers the request routes. */
export const requestRoutes = createRouter()
  .openapi(countRoute, async (c) => {
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    return c.json({ total: await countRequests(c.var.db, c.var.projectId, toFilters(q), q.after) }, 200);
  })
  .openapi(exportRoute, async (c) => {
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    return exportResponse(c.var.config.db, c.var.config.bodies, c.var.projectId, toFilters(q), q.format);
  })
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    const filters = toFilters(q);
    const reveal = q.reveal === "true";
    if (q.cursor !== undefined || q.after !== undefined || q.limit !== undefined || q.ids !== undefined) {
      if (q.cursor && q.after) throw new ApiError(422, "cursor: cannot be combined with after");
      const limit = q.limit ?? 50;
      const ids = q.ids?.toLowerCase().split(",");
      const page = await listRequestsKeyset(
        c.var.db,
        c.var.projectId,
        { ...filters, ids },
        { cursor: q.cursor?.toLowerCase(), after: q.after?.toLowerCase(), limit },
      );
      if (page.unknownAnchor) throw unknownAnchor();
      return c.json({ items: await shownToCaller(c, page.items.map(withIsoDates), reveal), next_cursor: page.next_cursor, limit }, 200);
    }
    const { items, total } = await listRequests(c.var.db, c.var.projectId, filters, q);
    return c.json({ items: await shownToCaller(c, items.map(withIsoDates), reveal), total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(getRoute, async (c) => {
    const id = c.req.valid("param").id.toLowerCase();
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    const found = await getRequest(c.var.db, c.var.config.bodies, c.var.projectId, id);
    if (!found) throw notFound("request");
    const [shown] = await shownToCaller(c, [withIsoDates(found)], q.reveal === "true");
    const body = { ...shown!, safety_scores: found.safety_scores.map(scoreJson), score_history: found.score_history.map(historyJson) };
    if (q.neighbours === "true") return c.json({ ...body, neighbours: await neighbours(c.var.db, c.var.projectId, id, toFilters(q)) }, 200);
    return c.json(body, 200);
  });
