/**
 * /api/projects/:projectId/policy: the project policy (docs/policy.md) for the dashboard, through
 * the API's GET/PUT /api/policy (typed client, internal secret). viewer: read; admin: replace.
 * The body is checked here with the API's own schema (422 naming the field, as the API answers);
 * the API's other refusals pass through with their `{detail}`.
 *
 * Also what the Policy page shows beside it (issue 33): `/calibration` (viewer; GET
 * /api/reviews/calibration), `/rescore` (admin; POST /api/rescore, a job over a range of at most
 * 90 days) and `/rescore/:jobId` (viewer; the job's progress, GET /api/rescore/{job_id}).
 */
import { Hono } from "hono";
import { PolicyInputSchema } from "../../../src/policy/schema";
import { RescoreInput } from "../../../workers/api/src/routes/queries";
import type { Policy, RescoreJob, ReviewCalibration } from "../contract";
import type { DashboardBindings } from "../env";
import { apiClient, unwrap } from "../lib/api-client";
import { projectAccess, requireSession } from "../lib/middleware";
import { validate, validIds } from "../lib/validate";

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
  })
  .get("/calibration", projectAccess("viewer"), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.reviews.calibration.$get({ query }))) satisfies ReviewCalibration, 200);
  })
  .post("/rescore", projectAccess("admin"), validate("json", RescoreInput), async (c) => {
    const query = { project_id: c.var.project.id };
    return c.json((await unwrap(apiClient(c.var.config).api.rescore.$post({ query, json: c.req.valid("json") }))) satisfies RescoreJob, 202);
  })
  .get("/rescore/:jobId", validIds({ projectId: "project", jobId: "rescore job" }), projectAccess("viewer"), async (c) => {
    const query = { project_id: c.var.project.id };
    const job = await unwrap(apiClient(c.var.config).api.rescore[":job_id"].$get({ param: { job_id: c.req.valid("param").jobId }, query }));
    return c.json(job satisfies RescoreJob, 200);
  });
