/**
 * POST /api/rescore and GET /api/rescore/{job_id} (docs/rescoring.md): re-score a project's
 * stored calls of a time range (at most 90 days) with today's scorers and policy. The job runs
 * on the scoring queue in bounded chunks (workers/scorer/src/rescore.ts); each re-score becomes
 * the current score and the previous one stays as history.
 */
import { z } from "@hono/zod-openapi";
import { createRescoreJob, getRescoreJob, type RescoreJob } from "../../../../src/db/rescore";
import { orNotFound } from "../../../../src/http/errors";
import { logError } from "../../../../src/logger";
import { enqueueRescores } from "../../../../src/queues/scoring-jobs";
import { createRouter, jsonBody, jsonResponse, projectRoutesTagged } from "./openapi";
import { RescoreJobSchema } from "./schemas";
import { ProjectIdQuery, RescoreInput } from "./queries";

const route = projectRoutesTagged("rescore");

const startRoute = route("post", "/api/rescore", "admin", {
  summary: "Re-score the project's calls of a time range (at most 90 days) with today's scorers and policy",
  request: { query: ProjectIdQuery, body: jsonBody(RescoreInput) },
  responses: { 202: jsonResponse(RescoreJobSchema, "Accepted: the job runs on the scoring queue; poll GET /api/rescore/{job_id}") },
});

const statusRoute = route("get", "/api/rescore/{job_id}", "read", {
  summary: "Progress of a re-scoring job",
  request: { params: z.object({ job_id: z.uuid() }), query: ProjectIdQuery },
  responses: { 200: jsonResponse(RescoreJobSchema, "The job") },
});

const answer = (j: RescoreJob) => ({
  id: j.id,
  state: j.state,
  total: j.total,
  done: j.done,
  since: j.since.toISOString(),
  until: j.until.toISOString(),
  reason: j.reason,
  created_at: j.created_at.toISOString(),
  finished_at: j.finished_at?.toISOString() ?? null,
});

/** Registers the re-scoring routes. */
export const rescoreRoutes = createRouter()
  .openapi(startRoute, async (c) => {
    const body = c.req.valid("json");
    const job = await createRescoreJob(c.var.db, c.var.projectId, new Date(body.since), new Date(body.until));
    // Not queued now: the scorer's scheduled handler sends jobs that have not moved (src/rescore/maintain.ts).
    await enqueueRescores(c.var.config.scoringQueue, [job.id]).catch((err: unknown) =>
      logError("rescore enqueue failed; the scheduled run sends it", { job_id: job.id }, err),
    );
    return c.json(answer(job), 202);
  })
  .openapi(statusRoute, async (c) => {
    const job = orNotFound(await getRescoreJob(c.var.db, c.var.projectId, c.req.valid("param").job_id.toLowerCase()), "rescore job");
    return c.json(answer(job), 200);
  });
