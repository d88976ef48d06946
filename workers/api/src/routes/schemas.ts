/**
 * Response schemas of the API's routes: the llm_requests and safety_scores records
 * (docs/interface.md sections 2.3 and 2.4), projects, keys, subscriptions, the overview series,
 * as JSON. Free of runtime bindings, so the dashboard's browser code can take its types from here
 * (dashboard/server/contract.ts).
 */
import { z } from "@hono/zod-openapi";
import { createSelectSchema } from "drizzle-zod";
import { alertDeliveries } from "../../../../src/db/schema/alerts";
import { apiKeys, llmRequests, PREVIEW_CHARS, projects, MAX_SESSION_CALLS, safetyScores } from "../../../../src/db/schema";
import {
  ALERT_FORMATS,
  API_KEY_SCOPES,
  CALIBRATION_THRESHOLDS,
  RESCORE_REASONS,
  RESCORE_STATES,
  REVIEW_VERDICTS,
  SCORE_LABELS,
  SCORER_NAMES,
  type ScorerName,
  SESSION_SCORERS,
  TIERS,
} from "../../../../src/enums";

/** An instant in a response: ISO-8601 text in UTC. */
export const instant = z.string().openapi({ format: "date-time", example: "2026-11-21T10:00:00.000Z" });

/**
 * Derived from the drizzle tables (drizzle-zod), so a column's type, nullability and enum have
 * one source; overridden only where the JSON differs from the row (instants are ISO-8601 text,
 * `metadata` is an object) or a description or bound is added.
 */
const requestColumns = createSelectSchema(llmRequests, {
  cost_usd: (s) => s.openapi({ description: "US dollars; null when unknown (not reported, and the model or its tokens are not in the price table)" }),
  cost_source: (s) => s.openapi({ description: "`reported` (by the producer) or `genai-prices` (priced by Sightline); null when the cost is unknown" }),
  price_version: (s) =>
    s.openapi({ description: "The price table that priced the call, e.g. `genai-prices@0.1.8`; null unless `cost_source` is `genai-prices`" }),
  cache_read_tokens: (s) => s.openapi({ description: "Prompt tokens read from the provider's prompt cache (part of prompt_tokens); null when not reported" }),
  cache_write_tokens: (s) => s.openapi({ description: "Prompt tokens written to the provider's prompt cache (part of prompt_tokens); null when not reported" }),
  preview: (s) =>
    s.openapi({
      description: `The start of the last user turn (up to ${PREVIEW_CHARS} characters, \`…\` when cut); personal data masked as in the bodies; null when none`,
    }),
  latency_ms: (s) => s.openapi({ description: "Milliseconds" }),
  metadata: z.record(z.string(), z.unknown()),
  created_at: instant,
});

/** A logged request in lists (no bodies). */
export const RequestSummarySchema = requestColumns
  .omit({
    request_body: true,
    response_body: true,
    enqueued_at: true,
    search_tsv: true,
    // Where the bodies are stored (src/bodies/): never shown.
    body_key: true,
    request_body_offset: true,
    request_body_length: true,
    response_body_offset: true,
    response_body_length: true,
    // How the export may skip masking (src/pii/mask.ts): internal.
    pii_free_version: true,
  })
  .openapi("LlmRequestSummary");

const scoreColumns = createSelectSchema(safetyScores, {
  score_value: (s) => s.min(1).max(5).openapi({ description: "Likert 1 (no sign) to 5 (clear, severe)" }),
  created_at: instant,
  scorer_version: (s) => s.openapi({ description: "The scorer's version: `model-<digest>` (learned) or `rules-<n>` (docs/rescoring.md)" }),
  unsafe_at: (s) => s.openapi({ description: "The policy's unsafe_at the label was set with (docs/policy.md)" }),
  policy_version: (s) => s.openapi({ description: "Version of the project policy in force when scored; 0 = the default policy" }),
  decided_by: (s) =>
    s.openapi({
      description:
        "Which tier decided the score: `local` (the scorer alone) or the guard model's id (docs/scoring.md); null for scores made before it was recorded",
      example: "local",
    }),
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
    decided_by: true,
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
  decided_by: string | null;
  scored_at: Date;
  superseded_at: Date;
}) {
  const { id, scorer_name, score_value, score_label, rationale, scorer_version, unsafe_at, policy_version, decided_by } = row;
  return {
    id,
    scorer_name,
    score_value,
    score_label,
    rationale,
    scorer_version,
    unsafe_at,
    policy_version,
    decided_by,
    scored_at: row.scored_at.toISOString(),
    superseded_at: row.superseded_at.toISOString(),
  };
}

/** The score a review was given on (kept with the review across re-scores, docs/rescoring.md). */
const ReviewedScoreShape = {
  score_value: z.number().int().nullable().openapi({ description: "The reviewed score's value (Likert 1-5; null when unscored)" }),
  score_label: z.enum(SCORE_LABELS).openapi({ description: "The reviewed score's label" }),
  scorer_version: z.string().openapi({ description: "The scorer version of the reviewed score" }),
  policy_version: z.number().int().openapi({ description: "The policy version of the reviewed score" }),
};

/** A reviewer's verdict on a call's score of one scorer, kept across re-scores. */
export const ReviewSchema = z
  .object({
    verdict: z.enum(REVIEW_VERDICTS),
    reviewer: z.string(),
    reviewed_at: instant,
    ...ReviewedScoreShape,
    changed: z.boolean().openapi({ description: "The current score's value or label differs from the reviewed one (score changed since review)" }),
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
    verdict: z.enum(REVIEW_VERDICTS).nullable().openapi({ description: "The review of this call and scorer, kept across re-scores" }),
    review_changed: z.boolean().openapi({ description: "Reviewed, and the score's value or label changed since" }),
  })
  .openapi("ScoreChip");

/** A request in keyset lists: the summary and its scores (empty while scoring is pending). */
export const RequestListItemSchema = RequestSummarySchema.extend({ scores: z.array(ScoreChipSchema) }).openapi("LlmRequestListItem");

/** One scorer's verdict on a whole session (`session_scores`). */
export const SessionScoreSchema = z
  .object({
    scorer_name: z.enum(SESSION_SCORERS),
    score_value: z.number().int().min(1).max(5).openapi({ description: "Likert 1 (no sign) to 5 (clear, severe)" }),
    score_label: z.enum(SCORE_LABELS),
    rationale: z.string(),
    decided_by: z.string().openapi({ description: "`local` (the session rules) or the guard model's id", example: "local" }),
    turns: z.number().int().openapi({ description: "Calls of the session judged together" }),
    updated_at: instant,
  })
  .openapi("SessionScore");

/** A row of GET /api/sessions. */
export const SessionSummarySchema = z
  .object({
    session_id: z.string(),
    first_call_at: instant,
    last_call_at: instant,
    calls: z.number().int(),
    unsafe_calls: z.number().int().openapi({ description: "Calls with at least one current `unsafe` score" }),
    session_score: SessionScoreSchema.nullable().openapi({ description: "The session-level jailbreak score; null until a call of the session was scored" }),
  })
  .openapi("SessionSummary");

/** The body of GET /api/sessions/{session_id}. */
export const SessionDetailSchema = z
  .object({
    session_id: z.string(),
    calls: z.array(RequestListItemSchema).openapi({ description: `The session's calls, oldest first (at most ${MAX_SESSION_CALLS})` }),
    truncated: z.boolean().openapi({ description: `The session has more than ${MAX_SESSION_CALLS} calls; the oldest are listed` }),
    session_scores: z.array(SessionScoreSchema),
  })
  .openapi("Session");

/** Serialises a row's Date fields as ISO-8601 text. */
export function withIsoDates<T extends { created_at: Date }>(row: T): Omit<T, "created_at"> & { created_at: string } {
  return { ...row, created_at: row.created_at.toISOString() };
}

/** The response of GET /api/requests/keyset. */
export const KeysetPageSchema = z
  .object({
    items: z.array(RequestListItemSchema),
    next_cursor: z.uuid().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last page" }),
    limit: z.number().int(),
  })
  .openapi("LlmRequestKeysetPage");

/** Unsafe rate of one scorer in one bucket of the overview series. */
const ScorerRateSchema = z.object({
  scorer_name: z.enum(SCORER_NAMES),
  scores: z.number().int().openapi({ description: "Scores written in the bucket" }),
  unsafe: z.number().int(),
  unsafe_rate: z.number().nullable().openapi({ description: "unsafe / scores that were not `unscored`; null when none" }),
});

/** One bucket of GET /api/stats/timeseries. */
const PointSchema = z.object({
  bucket: instant.openapi({ description: "Start of the bucket (UTC)" }),
  requests: z.number().int(),
  errors: z.number().int(),
  error_rate: z.number().nullable().openapi({ description: "errors / requests; null when no requests" }),
  p50_latency_ms: z.number().nullable().openapi({ description: "From the bucket's latency histogram (within 9%); null when no requests" }),
  p95_latency_ms: z.number().nullable().openapi({ description: "From the bucket's latency histogram (within 9%); null when no requests" }),
  cost_usd: z.number().openapi({ description: "Sum of the known costs, US dollars (calls of unknown cost are not in it: see `unpriced`)" }),
  unpriced: z.number().int().openapi({ description: "Calls in the bucket whose cost is unknown (`cost_usd` null)" }),
  scorers: z.array(ScorerRateSchema).openapi({ description: "Every scorer, zeros when it wrote no score in the bucket" }),
});

/** The body of GET /api/stats/timeseries: every bucket of the range, oldest first. */
export const TimeseriesSchema = z.object({ bucket: z.enum(["hour", "day"]), points: z.array(PointSchema) }).openapi("Timeseries");

/** The body of GET /api/safety-scores/summary: counts per scorer over a range. */
export const SafetyScoreSummarySchema = z
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

/** The body of GET /api/billing/subscription: a project's tier, limit and usage. */
export const SubscriptionSchema = z
  .object({
    project_id: z.uuid(),
    tier: z.enum(TIERS),
    status: z.string().openapi({
      description: "Stripe subscription status (active, trialing, past_due, unpaid, incomplete, canceled...); `active` for a project that never subscribed",
    }),
    limit: z.number().int().nullable().openapi({ description: "Requests per period; null means unlimited" }),
    requests_this_period: z.number().int(),
    retention_days: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Days logged calls and their scores are kept (free 30, pro 365); null: kept. Hourly totals stay (docs/retention.md)" }),
    retention_grace: z
      .object({
        tier: z.enum(TIERS).openapi({ description: "The tier held before the drop, whose retention still applies" }),
        retention_days: z.number().int().nullable().openapi({ description: "That tier's retention in days; null: kept" }),
        until: z
          .string()
          .openapi({ format: "date-time", description: "When the grace ends; then calls older than `retention_days` of the current tier are deleted" }),
      })
      .nullable()
      .openapi({
        description:
          "Retention grace period after a drop of tier (unpaid, canceled, downgraded): for 30 days calls are kept under the higher tier's retention (docs/retention.md); null when none runs",
      }),
    period_start_at: z.string().openapi({ format: "date-time" }),
    period_reset_at: z.string().openapi({ format: "date-time" }),
    payment_customer_id: z.string().nullable(),
    payment_subscription_id: z.string().nullable(),
  })
  .openapi("Subscription");

export type Subscription = z.infer<typeof SubscriptionSchema>;

// Derived from the tables (drizzle-zod): instants as ISO-8601 text; a key never shows its hash.
export const ProjectSchema = createSelectSchema(projects, { created_at: instant }).openapi("Project");
export const KeySchema = createSelectSchema(apiKeys, {
  key_hint: (s) => s.openapi({ example: "slk_1a2b…9f0e" }),
  created_at: instant,
  expires_at: instant.nullable().openapi({ description: "Set by rotation: the key stops working then" }),
  revoked_at: instant.nullable(),
  created_by: (s) => s.openapi({ description: "Who created the key in the dashboard (email), or null" }),
  last_used_at: instant.nullable().openapi({ description: "Last accepted use, recorded at most once a minute" }),
  scopes: z.array(z.enum(API_KEY_SCOPES)).openapi({
    description:
      "What the key may do: `ingest` (log calls), `read` (GET /api/*, personal data masked), `admin` (policy, webhooks, re-scoring, raw personal data)",
  }),
})
  .omit({ key_hash: true, replaced_by: true })
  .openapi("ApiKey");
export const NewKeySchema = KeySchema.extend({
  key: z.string().openapi({ description: "The full key. Shown once: store it now.", example: "slk_" + "0".repeat(48) }),
}).openapi("NewApiKey");

/** The body of a key rotation: the new key (shown once) and the one that expires. */
export const RotatedKeySchema = z.object({ key: NewKeySchema, previous: KeySchema }).openapi("RotatedApiKey");

/** The body of POST /api/safety-scores/{id}/review: the stored verdict. */
export const StoredReviewSchema = z
  .object({
    score_id: z.uuid(),
    request_id: z.uuid(),
    scorer_name: z.enum(SCORER_NAMES),
    verdict: z.enum(REVIEW_VERDICTS),
    reviewer: z.string(),
    reviewed_at: z.string(),
    ...ReviewedScoreShape,
  })
  .openapi("StoredScoreReview");

// Alert webhooks (docs/webhooks.md), derived from the tables of src/db/schema/alerts.ts where the JSON is the row.

/** Body of POST /api/webhooks. Unknown fields are refused (422 naming them). */
export const EndpointInput = z
  .strictObject({
    url: z.url().max(2048).openapi({
      description: "Where events are POSTed: https, public host (http and loopback only under `npm run dev`)",
      example: "https://hooks.example.com/sightline",
    }),
    min_score: z.number().int().min(1).max(5).default(4).openapi({ description: "Alert on scores >= this (Likert 1-5)", example: 4 }),
    scorers: z
      .array(z.enum(SCORER_NAMES))
      .min(1)
      .optional()
      .openapi({ description: "Scorers that may alert; omitted: every scorer", example: ["content_safety", "jailbreak_detection"] }),
    format: z.enum(ALERT_FORMATS).default("standard").openapi({ description: "`standard`: Standard Webhooks JSON; `slack`: Slack incoming-webhook message" }),
  })
  .openapi("AlertEndpointInput");

/** An endpoint as listed (never with its secret). */
export const EndpointSchema = z
  .object({
    id: z.uuid(),
    project_id: z.uuid(),
    url: z.string(),
    min_score: z.number().int(),
    scorers: z.array(z.enum(SCORER_NAMES)).nullable().openapi({ description: "null: every scorer" }),
    format: z.enum(ALERT_FORMATS),
    created_at: instant,
  })
  .openapi("AlertEndpoint");

/** The create answer: the endpoint and its signing secret, shown this once. */
export const CreatedEndpointSchema = EndpointSchema.extend({
  secret: z.string().openapi({
    description: "Standard Webhooks signing secret (`whsec_` + base64). Shown only in this answer: store it now.",
    example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  }),
}).openapi("CreatedAlertEndpoint");

/** One delivery (an attempt record; `dead` is the dead-letter record). */
export const DeliverySchema = createSelectSchema(alertDeliveries, {
  event_type: (s) => s.openapi({ description: "`score.unsafe`, or `webhook.test` for POST /api/webhooks/{id}/test" }),
  score_id: (s) => s.openapi({ description: "The score that triggered it; null for a test event" }),
  attempts: (s) => s.openapi({ description: "HTTP attempts made so far" }),
  last_status: (s) => s.openapi({ description: "HTTP status of the last attempt; null when it got no answer" }),
  last_error: (s) => s.openapi({ description: "Why the last attempt failed (e.g. `HTTP 500`, `timeout after 10000 ms`)" }),
  created_at: instant,
  last_attempt_at: instant.nullable(),
  next_attempt_at: instant.nullable().openapi({ description: "When the next attempt is due (state `retrying`)" }),
}).openapi("AlertDelivery");

/** A re-scoring job as the API answers it. */
export const RescoreJobSchema = z
  .object({
    id: z.uuid(),
    state: z.enum(RESCORE_STATES).openapi({ description: "`running` until every request of the range is re-scored, then `done`" }),
    total: z.number().int().openapi({ description: "Requests in the range (when done: the requests re-scored)" }),
    done: z.number().int().openapi({ description: "Requests re-scored so far" }),
    since: z.string(),
    until: z.string(),
    reason: z.enum(RESCORE_REASONS).openapi({ description: "`api`: asked for; `upgrade`: a deployment brought new scorer versions" }),
    created_at: z.string(),
    finished_at: z.string().nullable(),
  })
  .openapi("RescoreJob");

/** The body of GET /api/reviews/calibration. */
export const CalibrationSchema = z
  .object({
    scorers: z.array(
      z.object({
        scorer_name: z.enum(SCORER_NAMES),
        confirmed: z.number().int().openapi({ description: "Calls reviewed `confirmed` (unsafe) that have a current score of this scorer" }),
        false_positives: z.number().int().openapi({ description: "Calls reviewed `false_positive` (safe) that have a current score of this scorer" }),
        thresholds: z
          .array(
            z.object({
              unsafe_at: z.number().int().min(1).max(5),
              caught: z.number().int().openapi({ description: "Confirmed calls whose current score is at least `unsafe_at`" }),
              flagged: z.number().int().openapi({ description: "False positives whose current score is at least `unsafe_at`" }),
            }),
          )
          .openapi({ description: `One entry per unsafe_at of ${CALIBRATION_THRESHOLDS.join(", ")}` }),
      }),
    ),
  })
  .openapi("ReviewCalibration");
