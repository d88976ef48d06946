/**
 * /api/projects/:projectId/activity: whether the project has logged any call yet (the
 * onboarding page shows while it has none), and where calls go (public URLs for snippets).
 */
import { Hono } from "hono";
import type { Activity } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";

/** Activity route, mounted at /api/projects/:projectId/activity. */
export const activityRoutes = new Hono<DashboardBindings>().use(requireSession()).get("/", projectAccess("viewer"), async (c) => {
  const page = await unwrap(apiClient(c.var.config).api.requests.keyset.$get({ query: { project_id: c.var.project.id, limit: 1 } }));
  const activity: Activity = { has_requests: page.items.length > 0, api_url: c.var.config.publicApiUrl, proxy_url: c.var.config.publicProxyUrl };
  return c.json(activity, 200);
});
