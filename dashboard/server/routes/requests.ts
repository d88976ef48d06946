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
import { z } from "zod";
import { REVIEW_VERDICTS, roleAtLeast } from "../../../src/enums";
import { ApiError } from "../../../src/http/errors";
import type { PiiRevealList, RequestCount, RequestDetail, RequestPage, ReviewResult, SafetyScoreSummary, Timeseries } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, refusal, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { assertSearchAllowed, listReveals, maskStoredText, recordReveals, REVEAL_ROLE } from "../lib/pii";
import { validate, validIds } from "../lib/validate";

/**
 * The dashboard request's query for the API: its own parameters (the API validates them and
 * answers 422 naming the field), with the path's project instead of any `project_id` given.
 */
function forwardedQuery(url: string, projectId: string): Record<string, string> & { project_id: string } {
  const params = new URL(url).searchParams;
  params.delete("project_id");
  params.delete("reveal");
  return { ...Object.fromEntries(params), project_id: projectId };
}

/**
 * An export streamed from the API (which masks it: `reveal` is never forwarded) to the browser,
 * never buffered here, with its type and file name; a refusal answers as the API's.
 */
async function download(call: Promise<unknown>): Promise<Response> {
  const res = (await call) as Response;
  if (!res.ok) return refusal(res, "export refused");
  const headers = new Headers();
  for (const h of ["Content-Type", "Content-Disposition"]) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  return new Response(res.body, { status: 200, headers });
}

const Review = z.object({ verdict: z.enum(REVIEW_VERDICTS) });
const Reveal = z.looseObject({ reveal: z.enum(["true", "false"]).optional() });
const requestIds = validIds({ projectId: "project", id: "request" });
const scoreIds = validIds({ projectId: "project", scoreId: "safety score" });

/** Routes mounted at /api/projects/:projectId. */
export const requestRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/requests", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    await assertSearchAllowed(c.var.config, c.var.project.role, query);
    // Page mode (`page`) is the API's interface for scripts; the dashboard reads keyset pages.
    const page = (await unwrap(apiClient(c.var.config).api.requests.$get({ query: query as never }))) as RequestPage;
    if (!("next_cursor" in page)) throw new ApiError(422, "page: the dashboard lists requests by cursor; use limit, cursor or after");
    return c.json({ ...page, items: page.items.map(maskStoredText) } satisfies RequestPage, 200);
  })
  .get("/requests/count", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    await assertSearchAllowed(c.var.config, c.var.project.role, query);
    return c.json((await unwrap(apiClient(c.var.config).api.requests.count.$get({ query: query as never }))) satisfies RequestCount, 200);
  })
  .get("/requests/export", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    await assertSearchAllowed(c.var.config, c.var.project.role, query);
    return download(apiClient(c.var.config).api.requests.export.$get({ query: query as never }));
  })
  .get("/reviews/export", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    await assertSearchAllowed(c.var.config, c.var.project.role, query);
    return download(apiClient(c.var.config).api.reviews.export.$get({ query: query as never }));
  })
  .get("/requests/:id", requestIds, projectAccess("viewer"), validate("query", Reveal), async (c) => {
    const id = c.req.valid("param").id.toLowerCase();
    const reveal = c.req.valid("query").reveal === "true";
    const mayReveal = roleAtLeast(c.var.project.role, REVEAL_ROLE);
    if (reveal && !mayReveal) throw new ApiError(403, `revealing personal data needs the ${REVEAL_ROLE} role or higher`);
    const query = forwardedQuery(c.req.url, c.var.project.id);
    const detail = await unwrap(apiClient(c.var.config).api.requests[":id"].$get({ param: { id }, query: query as never }));
    if (reveal) await recordReveals(c.var.config, c.var.project.id, [id], c.var.user);
    const reveals = mayReveal ? { reveals: await listReveals(c.var.config, c.var.project.id, id) } : {};
    const shown = reveal ? { ...detail, pii_masked: false } : { ...maskStoredText(detail), pii_masked: true };
    const body: RequestDetail = { ...shown, ...reveals };
    return c.json(body, 200);
  })
  .get("/pii-reveals", projectAccess(REVEAL_ROLE), async (c) =>
    c.json({ items: await listReveals(c.var.config, c.var.project.id) } satisfies PiiRevealList, 200),
  )
  .get("/stats/timeseries", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    return c.json((await unwrap(apiClient(c.var.config).api.stats.timeseries.$get({ query: query as never }))) satisfies Timeseries, 200);
  })
  .get("/safety-scores/summary", projectAccess("viewer"), async (c) => {
    const query = forwardedQuery(c.req.url, c.var.project.id);
    return c.json((await unwrap(apiClient(c.var.config).api["safety-scores"].summary.$get({ query: query as never }))) satisfies SafetyScoreSummary, 200);
  })
  .post("/safety-scores/:scoreId/review", scoreIds, projectAccess("member"), validate("json", Review), async (c) => {
    const json = { verdict: c.req.valid("json").verdict, reviewer: c.var.user.email };
    const scores = apiClient(c.var.config).api["safety-scores"][":id"];
    const review = await unwrap(scores.review.$post({ param: { id: c.req.valid("param").scoreId }, query: { project_id: c.var.project.id }, json }));
    return c.json(review satisfies ReviewResult, 200);
  });
