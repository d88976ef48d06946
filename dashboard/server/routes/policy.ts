/**
 * /api/projects/:projectId/policy: the project policy (docs/policy.md) for the dashboard, through
 * the API's GET/PUT /api/policy (typed client, internal secret). viewer: read; admin: replace.
 * The body is checked here with the API's own schema (422 naming the field, as the API answers);
 * the API's other refusals pass through with their `{detail}`.
 */
import { Hono } from "hono";
import { PolicyInputSchema } from "../../../src/policy/schema";
import type { Policy } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { validate } from "../lib/validate";

/** Policy routes, mounted at /api/projects/:projectId/policy. */
export const policyRoutes = new Hono<DashboardBindings>()
  .use(requireSession())
  .get("/", projectAccess("viewer"), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.policy.$get({ query }))) satisfies Policy, 200);
  })
  .put("/", projectAccess("admin"), validate("json", PolicyInputSchema), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.policy.$put({ query, json: c.req.valid("json") }))) satisfies Policy, 200);
  });
