/**
 * Response schemas of the read routes: the llm_requests and safety_scores records
 * (docs/interface.md sections 2.3 and 2.4) as JSON.
 */
import { z } from "@hono/zod-openapi";
import { SCORER_NAMES } from "../scoring/types";

const instant = z.string().openapi({ format: "date-time", example: "2026-11-21T10:00:00.000Z" });

/** A logged request in lists (no bodies). */
export const RequestSummarySchema = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    model: z.string(),
    provider: z.string(),
    prompt_tokens: z.number().int(),
    completion_tokens: z.number().int(),
    cost_usd: z.number().openapi({ description: "US dollars" }),
    latency_ms: z.number().int().openapi({ description: "Milliseconds" }),
    metadata: z.record(z.string(), z.unknown()),
    created_at: instant,
    scoring_state: z.enum(["pending", "queued", "scored"]),
  })
  .openapi("LlmRequestSummary");

/** One safety score record. */
export const SafetyScoreSchema = z
  .object({
    id: z.uuid(),
    request_id: z.uuid(),
    project_id: z.uuid(),
    scorer_name: z.enum(SCORER_NAMES),
    score_value: z.number().int().min(1).max(5).nullable().openapi({ description: "Likert 1 (no sign) to 5 (clear, severe)" }),
    score_label: z.enum(["safe", "unsafe", "unscored"]),
    rationale: z.string(),
    created_at: instant,
  })
  .openapi("SafetyScore");

/** A request with its bodies and its scores. */
export const RequestDetailSchema = RequestSummarySchema.extend({
  request_body: z.unknown(),
  response_body: z.unknown(),
  safety_scores: z.array(SafetyScoreSchema),
}).openapi("LlmRequest");

/** Serialises a row's Date fields as ISO-8601 text. */
export function withIsoDates<T extends { created_at: Date }>(row: T): Omit<T, "created_at"> & { created_at: string } {
  return { ...row, created_at: row.created_at.toISOString() };
}
