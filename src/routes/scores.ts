/** GET /api/safety-scores and GET /api/safety-scores/summary (interface spec, section 4). */
import { createRoute, z } from "@hono/zod-openapi";
import { listScores, summarizeScores } from "../db/queries";
import { SCORE_LABELS } from "../db/schema";
import { SCORER_NAMES } from "../scoring/types";
import { commonErrors, createRouter, isoInstant, notFoundResponse, orderedRange, pageOf, PaginationQuery, ProjectIdQuery, access } from "./openapi";
import { SafetyScoreSchema, withIsoDates } from "./schemas";

const RangeQuery = ProjectIdQuery.extend({
  start: isoInstant("Earliest score created_at, inclusive (ISO-8601)"),
  end: isoInstant("Latest score created_at, exclusive (ISO-8601)"),
});

const ListQuery = orderedRange(
  PaginationQuery.extend(RangeQuery.shape).extend({
    request_id: z.uuid().optional(),
    scorer_name: z.enum(SCORER_NAMES).optional(),
    min_score: z.coerce.number().int().min(1).max(5).optional().openapi({ description: "Only scores >= this value (1-5)" }),
    label: z.enum(SCORE_LABELS).optional(),
  }),
);

const SummarySchema = z
  .object({
    project_id: z.uuid(),
    start: z.string().nullable(),
    end: z.string().nullable(),
    scorers: z.array(
      z.object({
        scorer_name: z.enum(SCORER_NAMES),
        total: z.number().int(),
        safe: z.number().int(),
        unsafe: z.number().int(),
        unscored: z.number().int(),
        mean_score: z.number().nullable().openapi({ description: "Mean score_value of scored records; null if none" }),
      }),
    ),
  })
  .openapi("SafetyScoreSummary");

const listRoute = createRoute({
  method: "get",
  path: "/api/safety-scores",
  tags: ["safety-scores"],
  summary: "List safety score records, newest first",
  ...access.project(),
  request: { query: ListQuery },
  responses: {
    200: { description: "A page of scores", content: { "application/json": { schema: pageOf(SafetyScoreSchema, "SafetyScorePage") } } },
    ...commonErrors,
    ...notFoundResponse,
  },
});

const summaryRoute = createRoute({
  method: "get",
  path: "/api/safety-scores/summary",
  tags: ["safety-scores"],
  summary: "Score counts per scorer and label, and the mean score, for a project and time range",
  ...access.project(),
  request: { query: orderedRange(RangeQuery) },
  responses: {
    200: { description: "The summary; every scorer is listed, with zeros when it has no scores", content: { "application/json": { schema: SummarySchema } } },
    ...commonErrors,
    ...notFoundResponse,
  },
});

const toDate = (s: string | undefined) => (s ? new Date(s) : undefined);

/** Registers the score routes. */
export const scoreRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const { items, total } = await listScores(c.var.db, c.var.projectId, { ...q, start: toDate(q.start), end: toDate(q.end) }, q);
    return c.json({ items: items.map(withIsoDates), total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(summaryRoute, async (c) => {
    const q = c.req.valid("query");
    const rows = await summarizeScores(c.var.db, c.var.projectId, { start: toDate(q.start), end: toDate(q.end) });
    const byName = new Map(rows.map((r) => [r.scorer_name, r]));
    const scorers = SCORER_NAMES.map(
      (name) => byName.get(name) ?? { scorer_name: name, total: 0, safe: 0, unsafe: 0, unscored: 0, mean_score: null },
    );
    return c.json({ project_id: c.var.projectId, start: q.start ?? null, end: q.end ?? null, scorers }, 200);
  });
