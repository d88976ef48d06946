/**
 * GET /api/requests (page-numbered, docs/interface.md section 4.3), /api/requests/keyset (keyset
 * pages with score chips: the dashboard's list), /api/requests/count, /api/requests/export and
 * /api/requests/{id}. The filters are shared (./request-query.ts).
 * The fixed paths are registered before `{id}` so they are not read as an id.
 */
import { z } from "@hono/zod-openapi";
import { countRequests, getRequest, listRequests, listRequestsKeyset, neighbours } from "../../../../src/db/requests";
import { ApiError, orNotFound } from "../../../../src/http/errors";
import { exportResponse } from "../../../../src/export/stream";
import { createRouter, jsonResponse, pageOf, projectRoutesTagged } from "./openapi";
import { assertReadAllowed, shownToCaller } from "./pii-access";
import { toFilters } from "./request-query";
import { historyJson, KeysetPageSchema, RequestDetailSchema, RequestSummarySchema, scoreJson, withIsoDates } from "./schemas";
import { CountQuery, ExportQuery, KeysetQuery, NeighboursQuery, PaginationQuery, RequestFilterQuery, RevealQuery, checkedFilters } from "./queries";

const PageListQuery = checkedFilters(PaginationQuery.extend(RequestFilterQuery.shape).extend(RevealQuery.shape));
const KeysetRevealQuery = checkedFilters(RequestFilterQuery.extend(KeysetQuery.shape).extend(RevealQuery.shape));

/** The keyset parameters, which GET /api/requests refuses (422) rather than answer a page the caller did not ask for. */
const KEYSET_PARAMS = Object.keys(KeysetQuery.shape);

const route = projectRoutesTagged("requests");

const listRoute = route.list("/api/requests", { query: PageListQuery }, pageOf(RequestSummarySchema, "LlmRequestPage"), {
  summary: "List logged requests of a project, newest first, page by page",
  description:
    "The envelope of docs/interface.md section 4.3 (`page`, `page_size`, `total`). For deep lists without a total, with each row's score chips, use GET /api/requests/keyset. " +
    "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited).",
});

const keysetRoute = route("get", "/api/requests/keyset", "read", {
  summary: "List logged requests of a project, newest first, by keyset",
  description:
    "`{items, next_cursor, limit}` ordered by (created_at, id) descending, each row with its score chips, and no total (ask /api/requests/count): " +
    "`cursor` continues after the previous page's `next_cursor`, `after` returns the rows newer than a shown one (live polling), `ids` re-reads given rows. " +
    "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited).",
  request: { query: KeysetRevealQuery },
  responses: { 200: jsonResponse(KeysetPageSchema, "A keyset page of requests") },
});

const countRoute = route("get", "/api/requests/count", "read", {
  summary: "Number of requests matching the filters (a separate call, so the list never waits for it)",
  request: { query: CountQuery },
  responses: { 200: jsonResponse(z.object({ total: z.number().int() }).openapi("RequestCount"), "The count") },
});

const exportRoute = route("get", "/api/requests/export", "read", {
  summary: "Every request matching the filters, streamed as CSV or JSONL, with PII masked",
  description:
    "Streams all matching rows (newest first) page by page from the database, so the size is not limited to one page. " +
    "Strings in the bodies have personal data found by the PII detectors replaced by `[KIND]` (e.g. `[EMAIL]`). " +
    "Each row carries its six scores and their review verdicts.",
  request: { query: ExportQuery },
  responses: {
    200: { description: "The export", content: { "text/csv": { schema: z.string() }, "application/x-ndjson": { schema: z.string() } } },
  },
});

const getRoute = route("get", "/api/requests/{id}", "read", {
  summary: "One request with its full bodies and its safety scores (with reviews)",
  description: "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited).",
  request: { params: z.object({ id: z.uuid() }), query: NeighboursQuery },
  responses: { 200: jsonResponse(RequestDetailSchema, "The request") },
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
  .openapi(keysetRoute, async (c) => {
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    if (q.cursor && q.after) throw new ApiError(422, "cursor: cannot be combined with after");
    const limit = q.limit ?? 50;
    const ids = q.ids?.toLowerCase().split(",");
    const page = await listRequestsKeyset(
      c.var.db,
      c.var.projectId,
      { ...toFilters(q), ids },
      { cursor: q.cursor?.toLowerCase(), after: q.after?.toLowerCase(), limit },
    );
    if (page.unknownAnchor) throw unknownAnchor();
    return c.json({ items: await shownToCaller(c, page.items.map(withIsoDates), q.reveal === "true"), next_cursor: page.next_cursor, limit }, 200);
  })
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const keysetParam = KEYSET_PARAMS.find((k) => c.req.query(k) !== undefined);
    if (keysetParam) throw new ApiError(422, `${keysetParam}: keyset paging is GET /api/requests/keyset; this list pages with page and page_size`);
    await assertReadAllowed(c, q);
    const { items, total } = await listRequests(c.var.db, c.var.projectId, toFilters(q), q);
    return c.json({ items: await shownToCaller(c, items.map(withIsoDates), q.reveal === "true"), total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(getRoute, async (c) => {
    const id = c.req.valid("param").id.toLowerCase();
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    const found = orNotFound(await getRequest(c.var.db, c.var.config.bodies, c.var.projectId, id), "request");
    const [shown] = await shownToCaller(c, [withIsoDates(found)], q.reveal === "true");
    const body = { ...shown!, safety_scores: found.safety_scores.map(scoreJson), score_history: found.score_history.map(historyJson) };
    if (q.neighbours === "true") return c.json({ ...body, neighbours: await neighbours(c.var.db, c.var.projectId, id, toFilters(q)) }, 200);
    return c.json(body, 200);
  });
