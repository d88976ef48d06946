/**
 * /api/projects/:projectId/{requests,stats,safety-scores}: the dashboard's views of logged calls
 * (issue 15), forwarded to the API's routes through the service binding with the internal
 * secret. Query parameters (filters, cursor) pass through unchanged, so the API's validation
 * and its `{detail}` answers apply as they are. viewer: read and export; member: review verdicts,
 * recorded with the signed-in user's email as the reviewer.
 *
 * PII is masked by default in the detail (bodies and metadata, `maskPiiJson`), as the API masks
 * it in exports; `reveal=true` shows it to an admin or owner only (others: 403), and every
 * reveal is written to the log as an audit record (who, which project, which request).
 */
import { Hono } from "hono";
import { z } from "zod";
import { ApiError } from "../../../src/errors";
import type { DashboardBindings, DashboardEnv } from "../env";
import { callApi } from "../lib/api-client";
import { maskPiiJson } from "../../../src/export/mask-pii";
import { roleAtLeast } from "../auth/roles";
import { jsonBody } from "../lib/body";
import { projectAccess, requireSession } from "../lib/middleware";

/** The query of the dashboard request, without any `project_id` (the path decides the project). */
function forwardedQuery(url: string): Record<string, string> {
  const params = new URL(url).searchParams;
  params.delete("project_id");
  return Object.fromEntries(params);
}

const uuid = z.uuid();
const Review = z.object({ verdict: z.enum(["false_positive", "confirmed"]) });

/** Streams the API's export to the browser (the body is never buffered here). */
async function forwardExport(env: DashboardEnv, projectId: string, query: Record<string, string>): Promise<Response> {
  const url = new URL("/api/requests/export", "https://api.internal");
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  url.searchParams.set("project_id", projectId);
  const res = await env.API.fetch(url, { headers: { "X-Internal-Secret": env.INTERNAL_API_SECRET } });
  if (!res.ok) {
    const detail = await res
      .json()
      .then((b) => String((b as { detail?: unknown }).detail ?? "export refused"))
      .catch(() => "export refused");
    throw new ApiError(res.status >= 500 ? 502 : (res.status as 422), detail);
  }
  const headers = new Headers();
  for (const h of ["Content-Type", "Content-Disposition"]) {
    const v = res.headers.get(h);
    if (v) headers.set(h, v);
  }
  return new Response(res.body, { status: 200, headers });
}

/** Routes mounted at /api/projects/:projectId. */
export const requestRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/requests", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, "/api/requests", { projectId: c.var.project.id, query: forwardedQuery(c.req.url) }), 200),
  )
  .get("/requests/count", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, "/api/requests/count", { projectId: c.var.project.id, query: forwardedQuery(c.req.url) }), 200),
  )
  .get("/requests/export", projectAccess("viewer"), (c) => forwardExport(c.env, c.var.project.id, forwardedQuery(c.req.url)))
  .get("/requests/:id", projectAccess("viewer"), async (c) => {
    const id = uuid.parse(c.req.param("id"));
    const query = forwardedQuery(c.req.url);
    const reveal = query.reveal === "true";
    delete query.reveal;
    if (reveal && !roleAtLeast(c.var.project.role, "admin")) throw new ApiError(403, "revealing personal data needs the admin role or higher");
    const detail = await callApi<Record<string, unknown>>(c.env, `/api/requests/${id}`, { projectId: c.var.project.id, query });
    if (reveal) {
      console.log(JSON.stringify({ msg: "pii revealed", user: c.var.user.email, project_id: c.var.project.id, request_id: id, at: new Date().toISOString() }));
      return c.json({ ...detail, pii_masked: false }, 200);
    }
    const masked = { request_body: maskPiiJson(detail.request_body), response_body: maskPiiJson(detail.response_body), metadata: maskPiiJson(detail.metadata) };
    return c.json({ ...detail, ...masked, pii_masked: true }, 200);
  })
  .get("/stats/timeseries", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, "/api/stats/timeseries", { projectId: c.var.project.id, query: forwardedQuery(c.req.url) }), 200),
  )
  .get("/safety-scores/summary", projectAccess("viewer"), async (c) =>
    c.json(await callApi(c.env, "/api/safety-scores/summary", { projectId: c.var.project.id, query: forwardedQuery(c.req.url) }), 200),
  )
  .post("/safety-scores/:scoreId/review", projectAccess("member"), async (c) => {
    const scoreId = uuid.parse(c.req.param("scoreId"));
    const { verdict } = await jsonBody(c, Review);
    const body = { verdict, reviewer: c.var.user.email };
    return c.json(await callApi(c.env, `/api/safety-scores/${scoreId}/review`, { method: "POST", projectId: c.var.project.id, body }), 200);
  });
