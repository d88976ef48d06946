/**
 * /api/projects/:projectId/sessions and /sessions/:sessionId: the dashboard's view of
 * conversations (issue 33.2, docs/sessions.md) through the API's typed client with the internal
 * secret. viewer and up. Stored text of the calls is masked for everyone (./lib/pii.ts), as in
 * the request list; a session id no call carries is the API's 404 `{detail}`.
 */
import { Hono } from "hono";
import type { SessionDetail, SessionPage } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { maskStoredText } from "../lib/pii";
import { validate, validIds } from "../lib/validate";
import { SessionListQuery } from "../../../workers/api/src/routes/queries";

const projectIds = validIds({ projectId: "project" });

/** Routes mounted at /api/projects/:projectId/sessions. */
export const sessionRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectIds, projectAccess("viewer"), validate("query", SessionListQuery), async (c) => {
    const query = { ...c.req.valid("query"), project_id: c.var.project.id };
    const page = await unwrap(apiClient(c.var.config).api.sessions.$get({ query }));
    return c.json(page satisfies SessionPage, 200);
  })
  .get("/:sessionId", projectIds, projectAccess("viewer"), async (c) => {
    const session_id = c.req.param("sessionId");
    const api = apiClient(c.var.config).api.sessions[":session_id"];
    const detail = await unwrap(api.$get({ param: { session_id }, query: { project_id: c.var.project.id } }));
    return c.json({ ...detail, calls: detail.calls.map(maskStoredText) } satisfies SessionDetail, 200);
  });
