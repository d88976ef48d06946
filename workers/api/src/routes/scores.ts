/** GET /api/safety-scores and GET /api/safety-scores/summary (docs/interface.md sections 4.5 and 4.6). */
import { z } from "@hono/zod-openapi";
import { listScores, summarizeScores } from "../../../../src/db/scores";
import { reviewScore } from "../../../../src/db/reviews";
import { REVIEW_VERDICTS, SCORE_LABELS, SCORER_NAMES } from "../../../../src/enums";
import { orNotFound } from "../../../../src/http/errors";
import { createRouter, jsonBody, jsonResponse, pageOf, projectRoutesTagged } from "./openapi";
import { SafetyScoreSchema, SafetyScoreSummarySchema as SummarySchema, StoredReviewSchema as StoredReview, scoreJson } from "./schemas";
import { PaginationQuery, ProjectIdQuery, ScoreRangeQuery, SummaryQuery, orderedRange } from "./queries";

const ListQuery = orderedRange(
  PaginationQuery.extend(ScoreRangeQuery.shape).extend({
    request_id: z.uuid().optional(),
    scorer_name: z.enum(SCORER_NAMES).optional(),
    min_score: z.coerce.number().int().min(1).max(5).optional().openapi({ description: "Only scores >= this value (1-5)" }),
    label: z.enum(SCORE_LABELS).optional(),
  }),
);

const route = projectRoutesTagged("safety-scores");

const listRoute = route.list("/api/safety-scores", { query: ListQuery }, pageOf(SafetyScoreSchema, "SafetyScorePage"), {
  summary: "List safety score records, newest first",
});

const summaryRoute = route("get", "/api/safety-scores/summary", "read", {
  summary: "Score counts per scorer and label, and the mean score, for a project and time range",
  request: { query: SummaryQuery },
  responses: { 200: jsonResponse(SummarySchema, "The summary; every scorer is listed, with zeros when it has no scores") },
});

const ReviewInput = z
  .object({
    verdict: z.enum(REVIEW_VERDICTS),
    reviewer: z.string().trim().min(1).max(256).openapi({ description: "Who reviewed (the dashboard user's email or id)", example: "ana@example.com" }),
  })
  .openapi("ScoreReviewInput");

const reviewRoute = route("post", "/api/safety-scores/{id}/review", "admin", {
  summary: "Record a reviewer's verdict on a score (false positive or confirmed); a new verdict replaces the old",
  request: { params: z.object({ id: z.uuid() }), query: ProjectIdQuery, body: jsonBody(ReviewInput) },
  responses: { 200: jsonResponse(StoredReview, "The stored review") },
});

const toDate = (s: string | undefined) => (s ? new Date(s) : undefined);

/** Registers the score routes. */
export const scoreRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const { items, total } = await listScores(c.var.db, c.var.projectId, { ...q, start: toDate(q.start), end: toDate(q.end) }, q);
    return c.json({ items: items.map(scoreJson), total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(reviewRoute, async (c) => {
    const { verdict, reviewer } = c.req.valid("json");
    const row = orNotFound(await reviewScore(c.var.db, c.var.projectId, c.req.valid("param").id.toLowerCase(), verdict, reviewer), "safety score");
    const { project_id: _, ...review } = row;
    return c.json({ ...review, reviewed_at: row.reviewed_at.toISOString() }, 200);
  })
  .openapi(summaryRoute, async (c) => {
    const q = c.req.valid("query");
    const rows = await summarizeScores(c.var.db, c.var.projectId, { start: toDate(q.start), end: toDate(q.end) });
    const byName = new Map(rows.map((r) => [r.scorer_name, r]));
    const scorers = SCORER_NAMES.map((name) => byName.get(name) ?? { scorer_name: name, total: 0, safe: 0, unsafe: 0, unscored: 0, mean_score: null });
    return c.json({ project_id: c.var.projectId, start: q.start ?? null, end: q.end ?? null, scorers }, 200);
  });
