/**
 * /api/projects/:projectId/{requests,stats,safety-scores,pii-reveals}: the dashboard's views of
 * logged calls (issue 15), through the API's typed client with the internal secret. Filters and
 * cursors pass through unchanged, so the API's validation and its `{detail}` answers apply as
 * they are. viewer: read and export; member: review verdicts, recorded with the signed-in user's
 * email as the reviewer. `/reviews/export`: the reviewed calls as a labelled dataset (viewer).
 *
 * Stored text is masked for everyone in lists and the detail (./lib/pii.ts, the export's own
 * function); `reveal=true` shows a request unmasked to an owner or admin only (others: 403),
 * after recording the reveal in the API's audit (./lib/pii.ts, /internal), which owners and admins read on
 * the request (`reveals`) and at /pii-reveals. A malformed id is 404, as an unknown one.
 */
import { Hono } from "hono";
import type { ClientResponse } from "hono/client";
import { z } from "zod";
import { REVIEW_VERDICTS, roleAtLeast } from "../../../src/enums";
import { ApiError } from "../../../src/http/errors";
import type { PiiRevealList, RequestCount, RequestDetail, RequestPage, ReviewResult, SafetyScoreSummary, Timeseries } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, refusal, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { assertSearchAllowed, listReveals, maskStoredText, recordReveals, REVEAL_ROLE } from "../lib/pii";
import { validate, validIds } from "../lib/validate";
import {
  CountQuery,
  ExportQuery,
  KeysetListQuery,
  NeighboursQuery,
  ReviewExportQuery,
  SummaryQuery,
  TimeseriesQuery,
} from "../../../workers/api/src/routes/queries";

/** Rows of a list page when the browser names no `limit` (the API's keyset default). */
const DEFAULT_LIMIT = 50;

/**
 * An export streamed from the API (which masks it: `reveal` is never forwarded) to the browser,
 * never buffered here, with its type and file name; a refusal answers as the API's.
 */
async function download(res: ClientResponse<unknown>): Promise<Response> {
  if (!res.ok) return refusal(res, "export refused");
  const headers = new Headers();
  for (const h of ["Content-Type", "Content-Disposition"]) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  return new Response(res.body, { status: 200, headers });
}

const Review = z.object({ verdict: z.enum(REVIEW_VERDICTS) });
const requestIds = validIds({ projectId: "project", id: "request" });
const scoreIds = validIds({ projectId: "project", scoreId: "safety score" });

/**
 * A validated query for the API: the path's project instead of any `project_id` given, and never
 * `reveal` (this server unmasks itself, after recording the reveal).
 */
function forwarded<Q extends { project_id?: string; reveal?: string }>(q: Q, projectId: string): Omit<Q, "reveal"> & { project_id: string } {
  const { reveal: _reveal, ...rest } = q;
  return { ...rest, project_id: projectId };
}

/** Routes mounted at /api/projects/:projectId. */
export const requestRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/requests", projectAccess("viewer"), validate("query", KeysetListQuery), async (c) => {
    await assertSearchAllowed(c.var.config, c.var.project.role, c.req.query());
    const q = c.req.valid("query");
    // The API's keyset list (its own route and shape); its page-numbered list is for scripts.
    const query = { ...forwarded(q, c.var.project.id), limit: q.limit ?? DEFAULT_LIMIT };
    const page = await unwrap(apiClient(c.var.config).api.requests.keyset.$get({ query }));
    return c.json({ ...page, items: page.items.map(maskStoredText) } satisfies RequestPage, 200);
  })
  .get("/requests/count", projectAccess("viewer"), validate("query", CountQuery), async (c) => {
    await assertSearchAllowed(c.var.config, c.var.project.role, c.req.query());
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    return c.json((await unwrap(apiClient(c.var.config).api.requests.count.$get({ query }))) satisfies RequestCount, 200);
  })
  .get("/requests/export", projectAccess("viewer"), validate("query", ExportQuery), async (c) => {
    await assertSearchAllowed(c.var.config, c.var.project.role, c.req.query());
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    return download(await apiClient(c.var.config).api.requests.export.$get({ query }));
  })
  .get("/reviews/export", projectAccess("viewer"), validate("query", ReviewExportQuery), async (c) => {
    await assertSearchAllowed(c.var.config, c.var.project.role, c.req.query());
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    return download(await apiClient(c.var.config).api.reviews.export.$get({ query }));
  })
  .get("/requests/:id", requestIds, projectAccess("viewer"), validate("query", NeighboursQuery), async (c) => {
    const id = c.req.valid("param").id.toLowerCase();
    const reveal = c.req.valid("query").reveal === "true";
    const mayReveal = roleAtLeast(c.var.project.role, REVEAL_ROLE);
    if (reveal && !mayReveal) throw new ApiError(403, `revealing personal data needs the ${REVEAL_ROLE} role or higher`);
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    const detail = await unwrap(apiClient(c.var.config).api.requests[":id"].$get({ param: { id }, query }));
    if (reveal) await recordReveals(c.var.config, c.var.project.id, [id], c.var.user);
    const reveals = mayReveal ? { reveals: await listReveals(c.var.config, c.var.project.id, id) } : {};
    const shown = reveal ? { ...detail, pii_masked: false } : { ...maskStoredText(detail), pii_masked: true };
    const body: RequestDetail = { ...shown, ...reveals };
    return c.json(body, 200);
  })
  .get("/pii-reveals", projectAccess(REVEAL_ROLE), async (c) =>
    c.json({ items: await listReveals(c.var.config, c.var.project.id) } satisfies PiiRevealList, 200),
  )
  .get("/stats/timeseries", projectAccess("viewer"), validate("query", TimeseriesQuery), async (c) => {
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    return c.json((await unwrap(apiClient(c.var.config).api.stats.timeseries.$get({ query }))) satisfies Timeseries, 200);
  })
  .get("/safety-scores/summary", projectAccess("viewer"), validate("query", SummaryQuery), async (c) => {
    const query = forwarded(c.req.valid("query"), c.var.project.id);
    return c.json((await unwrap(apiClient(c.var.config).api["safety-scores"].summary.$get({ query }))) satisfies SafetyScoreSummary, 200);
  })
  .post("/safety-scores/:scoreId/review", scoreIds, projectAccess("member"), validate("json", Review), async (c) => {
    const json = { verdict: c.req.valid("json").verdict, reviewer: c.var.user.email };
    const scores = apiClient(c.var.config).api["safety-scores"][":id"];
    const review = await unwrap(scores.review.$post({ param: { id: c.req.valid("param").scoreId }, query: { project_id: c.var.project.id }, json }));
    return c.json(review satisfies ReviewResult, 200);
  });
