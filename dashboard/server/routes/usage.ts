/**
 * /api/projects/:projectId/activity: whether the project has logged any call yet (the
 * onboarding page shows while it has none), and where calls go (public URLs for snippets).
 */
import { Hono } from "hono";
import type { DashboardBindings } from "../env";
import { callApi } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";

/** Activity route, mounted at /api/projects/:projectId/activity. */
export const activityRoutes = new Hono<DashboardBindings>().use(requireSession()).get("/", projectAccess("viewer"), async (c) => {
  const page = await callApi<{ items: unknown[]; total?: number }>(c.env, "/api/requests", { projectId: c.var.project.id, query: { limit: "1" } });
  return c.json({ has_requests: page.items.length > 0, api_url: c.env.PUBLIC_API_URL, proxy_url: c.env.PUBLIC_PROXY_URL }, 200);
});
