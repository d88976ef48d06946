/**
 * Response schemas of the read routes: the llm_requests and safety_scores records
 * (docs/interface.md sections 2.3 and 2.4) as JSON.
 */
import { z } from "@hono/zod-openapi";
import { createSelectSchema } from "drizzle-zod";
import { llmRequests, REVIEW_VERDICTS, SCORE_LABELS, safetyScores } from "../db/schema";
import { SCORER_NAMES, type ScorerName } from "../scoring/types";

/** An instant in a response: ISO-8601 text in UTC. */
export const instant = z.string().openapi({ format: "date-time", example: "2026-11-21T10:00:00.000Z" });

/**
 * Derived from the drizzle tables (drizzle-zod), so a column's type, nullability and enum have
 * one source; overridden only where the JSON differs from the row (instants are ISO-8601 text,
 * `metadata` is an object) or a description or bound is added.
 */
const requestColumns = createSelectSchema(llmRequests, {
  cost_usd: (s) => s.openapi({ description: "US dollars" }),
  latency_ms: (s) => s.openapi({ description: "Milliseconds" }),
  metadata: z.record(z.string(), z.unknown()),
  created_at: instant,
});

/** A logged request in lists (no bodies). */
export const RequestSummarySchema = requestColumns
  .omit({ request_body: true, response_body: true, enqueued_at: true, search_tsv: true })
  .openapi("LlmRequestSummary");

const scoreColumns = createSelectSchema(safetyScores, {
  score_value: (s) => s.min(1).max(5).openapi({ description: "Likert 1 (no sign) to 5 (clear, severe)" }),
  created_at: instant,
  scorer_version: (s) => s.openapi({ description: "The scorer's version: `model-<digest>` (learned) or `rules-<n>` (docs/rescoring.md)" }),
  unsafe_at: (s) => s.openapi({ description: "The policy's unsafe_at the label was set with (docs/policy.md)" }),
  policy_version: (s) => s.openapi({ description: "Version of the project policy in force when scored; 0 = the default policy" }),
  scored_at: instant.openapi({ description: "When this score was computed (first scoring or a re-score)" }),
  superseded_at: instant.nullable().openapi({ description: "When a re-score replaced it" }),
});

/** One safety score record (a current one: history is in the request detail's `score_history`). */
export const SafetyScoreSchema = scoreColumns.omit({ superseded_at: true }).openapi("SafetyScore");

/** A score a re-score replaced (docs/rescoring.md). */
export const ScoreHistorySchema = scoreColumns
  .pick({
    id: true,
    scorer_name: true,
    score_value: true,
    score_label: true,
    rationale: true,
    scorer_version: true,
    unsafe_at: true,
    policy_version: true,
    scored_at: true,
  })
  .extend({ superseded_at: instant })
  .openapi("SafetyScoreHistory");

/** A score row as JSON: instants as ISO-8601 text, without `superseded_at` (null for a current score). */
export function scoreJson<T extends { created_at: Date; scored_at: Date; superseded_at: Date | null }>({ superseded_at: _, ...row }: T) {
  return { ...withIsoDates(row), scored_at: row.scored_at.toISOString() };
}

/** A replaced score row as JSON (`ScoreHistorySchema`). */
export function historyJson(row: {
  id: string;
  scorer_name: ScorerName;
  score_value: number | null;
  score_label: (typeof SCORE_LABELS)[number];
  rationale: string;
  scorer_version: string;
  unsafe_at: number;
  policy_version: number;
  scored_at: Date;
  superseded_at: Date;
}) {
  const { id, scorer_name, score_value, score_label, rationale, scorer_version, unsafe_at, policy_version } = row;
  return {
    id,
    scorer_name,
    score_value,
    score_label,
    rationale,
    scorer_version,
    unsafe_at,
    policy_version,
    scored_at: row.scored_at.toISOString(),
    superseded_at: row.superseded_at.toISOString(),
  };
}

/** A reviewer's verdict on a score. */
export const ReviewSchema = z
  .object({
    verdict: z.enum(REVIEW_VERDICTS),
    reviewer: z.string(),
    reviewed_at: instant,
  })
  .openapi("ScoreReview");

/** A score of a request's detail, with its review (null when not reviewed). */
export const DetailScoreSchema = SafetyScoreSchema.extend({ review: ReviewSchema.nullable() }).openapi("SafetyScoreWithReview");

/** A request with its bodies, its scores and, when asked, its neighbours in the filtered list. */
export const RequestDetailSchema = RequestSummarySchema.extend({
  request_body: z.unknown(),
  response_body: z.unknown(),
  safety_scores: z.array(DetailScoreSchema),
  score_history: z.array(ScoreHistorySchema).openapi({ description: "Scores replaced by re-scoring, oldest first per scorer (docs/rescoring.md)" }),
  neighbours: z
    .object({
      newer_id: z.uuid().nullable().openapi({ description: "Previous row of the list (newer), null at the top" }),
      older_id: z.uuid().nullable().openapi({ description: "Next row of the list (older), null at the end" }),
    })
    .optional()
    .openapi({ description: "Present when `neighbours=true`: ids next to this request among those matching the filters given" }),
}).openapi("LlmRequest");

/** One score of a list row: enough for the table's safety cell. */
export const ScoreChipSchema = z
  .object({
    scorer_name: z.enum(SCORER_NAMES),
    score_value: z.number().int().nullable(),
    score_label: z.enum(SCORE_LABELS),
    verdict: z.enum(REVIEW_VERDICTS).nullable(),
  })
  .openapi("ScoreChip");

/** A request in keyset lists: the summary and its scores (empty while scoring is pending). */
export const RequestListItemSchema = RequestSummarySchema.extend({ scores: z.array(ScoreChipSchema) }).openapi("LlmRequestListItem");

/** Serialises a row's Date fields as ISO-8601 text. */
export function withIsoDates<T extends { created_at: Date }>(row: T): Omit<T, "created_at"> & { created_at: string } {
  return { ...row, created_at: row.created_at.toISOString() };
}
