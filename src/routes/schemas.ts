/**
 * Response schemas of the read routes: the spec's llm_requests and safety_scores records
 * (interface spec, section 2) as JSON.
 */
import { z } from "@hono/zod-openapi";
import { createSelectSchema } from "drizzle-zod";
import { llmRequests, safetyScores } from "../db/schema";

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
  .omit({ request_body: true, response_body: true, enqueued_at: true })
  .openapi("LlmRequestSummary");

/** One safety score record. */
export const SafetyScoreSchema = createSelectSchema(safetyScores, {
  score_value: (s) => s.min(1).max(5).openapi({ description: "Likert 1 (no sign) to 5 (clear, severe)" }),
  created_at: instant,
}).openapi("SafetyScore");

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
