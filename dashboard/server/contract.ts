/**
 * The dashboard's contract: every body the dashboard server answers, as types derived from the
 * API's own response schemas (workers/api/src/routes/schemas.ts, the same zod schemas that validate and
 * document the API), plus the few fields the dashboard server adds. The browser code
 * (dashboard/src) imports its types and enums from here and nowhere else; the server routes
 * check their answers against the same types (`satisfies`), so the two cannot drift.
 *
 * Free of runtime bindings and of server code: importing it adds nothing to the browser bundle
 * but the enums (src/enums.ts).
 */
import type { z } from "zod";
import type {
  CalibrationSchema,
  CreatedEndpointSchema,
  DeliverySchema,
  EndpointInput,
  EndpointSchema,
  KeySchema,
  KeysetPageSchema,
  NewKeySchema,
  RequestDetailSchema,
  RequestListItemSchema,
  RescoreJobSchema,
  RotatedKeySchema,
  SafetyScoreSummarySchema,
  ScoreChipSchema,
  ScoreHistorySchema,
  SessionDetailSchema,
  SessionSummarySchema,
  StoredReviewSchema,
  SubscriptionSchema,
  TimeseriesSchema,
} from "../../workers/api/src/routes/schemas";
import type { Role } from "../../src/enums";
import type { PolicyInputSchema, PolicySchema } from "../../src/policy/schema";

export {
  ALERT_FORMATS,
  JUDGE_MODES,
  LOCAL_DECIDER,
  PAID_TIERS,
  REVIEW_VERDICTS,
  ROLES,
  roleAtLeast,
  scopesForRole,
  scopesWithin,
  SCORE_LABELS,
  SCORER_NAMES,
  STORE_PII_MODES,
  TIERS,
  type AlertFormat,
  type ApiKeyScope,
  type DeliveryState,
  type ExportFormat,
  type JudgeMode,
  type PaidTier,
  type ReviewVerdict,
  type Role,
  type ScoreLabel,
  type ScorerName,
  type Tier,
} from "../../src/enums";

/** A list answer: its `items`, in the order its route documents. */
export interface ItemList<T> {
  items: T[];
}

/** A project the signed-in user can open, with their role in its organisation (GET /api/projects). */
export interface Project {
  id: string;
  name: string;
  /** ISO-8601 instant. */
  created_at: string;
  organization_id: string;
  organization_name: string;
  role: Role;
}

/** GET /api/projects: the user's projects, oldest first, and who is signed in. */
export interface ProjectList extends ItemList<Project> {
  user: { id: string; email: string; name: string };
}

/** An API key as listed (hint only). */
export type ApiKey = z.infer<typeof KeySchema>;
/** A key with its full value: only in the create answer. */
export type NewApiKey = z.infer<typeof NewKeySchema>;
/** The rotate answer: the new key (full value, once) and the one expiring in 60 s. */
export type RotatedApiKey = z.infer<typeof RotatedKeySchema>;
/** GET /api/projects/:id/keys. */
export type ApiKeyList = ItemList<ApiKey>;

/** The project's subscription and usage (GET /api/projects/:id/billing). */
export type Subscription = z.infer<typeof SubscriptionSchema>;
/** A Stripe-hosted page to send the browser to (checkout, billing portal). */
export interface RedirectSession {
  url: string;
}

/** Whether the project has any logged call, and the public URLs for snippets. */
export interface Activity {
  has_requests: boolean;
  api_url: string;
  proxy_url: string;
}

/** One score of a list row (the table's safety cell). */
export type ScoreChip = z.infer<typeof ScoreChipSchema>;
/** One row of the Requests table; `metadata` is PII-masked for everyone. */
export type RequestListItem = z.infer<typeof RequestListItemSchema>;
/** GET /api/projects/:id/requests (the API's keyset list). */
export type RequestPage = z.infer<typeof KeysetPageSchema>;
/** One row of GET /api/projects/:id/sessions. */
export type SessionSummary = z.infer<typeof SessionSummarySchema>;
/** GET /api/projects/:id/sessions: a page of conversations, most recently active first. */
export interface SessionPage {
  items: SessionSummary[];
  total: number;
  page: number;
  page_size: number;
}
/** GET /api/projects/:id/sessions/:sessionId: the calls in order (stored text masked) and the session scores. */
export type SessionDetail = z.infer<typeof SessionDetailSchema>;

/** GET /api/projects/:id/requests/count. */
export interface RequestCount {
  total: number;
}

/** One recorded reveal of personal data (owner/admin only): by a user or an API key (src/pii/reveals.ts). */
import type { PiiReveal } from "../../src/pii/reveal-types";
export type { PiiReveal };

/** GET /api/projects/:id/pii-reveals: the project's reveal audit, newest first. */
export type PiiRevealList = ItemList<PiiReveal>;

/**
 * GET /api/projects/:id/requests/:requestId: the request with bodies and scores. Masked unless
 * `pii_masked` is false (an owner or admin asked `reveal=true`; the reveal is recorded).
 * `reveals` is present for owners and admins only: this request's reveal audit, newest first.
 */
export type RequestDetail = z.infer<typeof RequestDetailSchema> & { pii_masked: boolean; reveals?: PiiReveal[] };

/** POST /api/projects/:id/safety-scores/:scoreId/review: the stored verdict. */
export type ReviewResult = z.infer<typeof StoredReviewSchema>;

/** A score a re-score replaced (the detail's `score_history`, oldest first per scorer). */
export type ScoreHistoryEntry = z.infer<typeof ScoreHistorySchema>;

/** GET and PUT /api/projects/:id/policy: the policy in force, every scorer listed (docs/policy.md). */
export type Policy = z.infer<typeof PolicySchema>;
/** The body of PUT /api/projects/:id/policy: scorers or fields left out take their defaults. */
export type PolicyInput = z.input<typeof PolicyInputSchema>;

/** POST /api/projects/:id/policy/rescore and GET .../rescore/:jobId: a re-scoring job and its progress (docs/rescoring.md). */
export type RescoreJob = z.infer<typeof RescoreJobSchema>;
/** GET /api/projects/:id/policy/calibration: per scorer and unsafe_at, the reviewed calls caught and falsely flagged. */
export type ReviewCalibration = z.infer<typeof CalibrationSchema>;

/** An alert endpoint as listed (never with its secret, docs/webhooks.md). */
export type WebhookEndpoint = z.infer<typeof EndpointSchema>;
/** GET /api/projects/:id/webhooks: the project's endpoints, oldest first (one page of up to 200). */
export type WebhookList = ItemList<WebhookEndpoint>;
/** The create answer: the endpoint and its signing secret, shown this once. */
export type CreatedWebhook = z.infer<typeof CreatedEndpointSchema>;
/** The body of POST /api/projects/:id/webhooks. */
export type NewWebhook = z.input<typeof EndpointInput>;
/** One delivery to an endpoint (state `dead`: the dead-letter record); also the answer of a test event. */
export type WebhookDelivery = z.infer<typeof DeliverySchema>;
/** GET /api/projects/:id/webhooks/:endpointId/deliveries: recent deliveries, newest first. */
export interface WebhookDeliveryList extends ItemList<WebhookDelivery> {
  total: number;
}

/** GET /api/projects/:id/stats/timeseries. */
export type Timeseries = z.infer<typeof TimeseriesSchema>;
/** GET /api/projects/:id/safety-scores/summary. */
export type SafetyScoreSummary = z.infer<typeof SafetyScoreSummarySchema>;

/** Every refusal of the dashboard server: 4xx/5xx with a human-readable `detail`. */
export interface ErrorBody {
  detail: string;
}
