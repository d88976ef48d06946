/**
 * The enumerations that the API, its database schema, the workers and the dashboard (server and
 * browser) share, declared once here and imported everywhere else (issues 25 and 35: "enums once,
 * everywhere"). test/unit/architecture/enums-once.test.ts fails when a set of this module is
 * written out again anywhere in src/, workers/ or dashboard/ (a list, a union or an options
 * list): derive a subset from its set (`PAID_TIERS`) or map over it.
 * Dependency-free on purpose: the browser bundle imports this module.
 */

/**
 * Names of the six scorers (docs/interface.md section 1.3), in the order lists and tables show
 * them. Each has a folder under src/scoring/scorers/ and a registry entry (src/scoring/registry.ts).
 */
export const SCORER_NAMES = ["content_safety", "pii_detection", "jailbreak_detection", "data_poisoning", "vector_weakness", "unbounded_consumption"] as const;
/** One of `SCORER_NAMES`. */
export type ScorerName = (typeof SCORER_NAMES)[number];

/** Label of a safety score: 4-5 `unsafe`, 1-3 `safe`, `unscored` when there was nothing to judge (docs/decisions.md D10). */
export const SCORE_LABELS = ["safe", "unsafe", "unscored"] as const;
/** One of `SCORE_LABELS`. */
export type ScoreLabel = (typeof SCORE_LABELS)[number];
/** A label a call can be judged to deserve (`safe` or `unsafe`): what a review or an evaluation item expects. */
export type JudgedLabel = Exclude<ScoreLabel, "unscored">;

/** A reviewer's verdict on a safety score (dashboard triage). */
export const REVIEW_VERDICTS = ["false_positive", "confirmed"] as const;
/** One of `REVIEW_VERDICTS`. */
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/** Subscription tiers (docs/interface.md sections 2.5 and 8). */
export const TIERS = ["free", "pro", "team", "enterprise"] as const;
/** One of `TIERS`. */
export type Tier = (typeof TIERS)[number];
/** A tier that is paid for (has a Stripe price): every tier but `free`. */
export type PaidTier = Exclude<Tier, "free">;
/** The paid tiers, in the order of `TIERS` (cheapest first). */
export const PAID_TIERS: readonly PaidTier[] = TIERS.filter((t): t is PaidTier => t !== "free");

/** What happens to personal data found in logged bodies (docs/policy.md): stored as is, or masked before storage. */
export const STORE_PII_MODES = ["keep", "mask"] as const;

/**
 * When the guard-model tier is asked about a call (docs/scoring.md "Guard-model tier"): never,
 * only for scores inside the scorer's uncertain band, or for every scored call.
 */
export const JUDGE_MODES = ["off", "uncertain", "all"] as const;
/** One of `JUDGE_MODES`. */
export type JudgeMode = (typeof JUDGE_MODES)[number];

/** `decided_by` of a score the local scorer decided; otherwise it names the guard model that did. */
export const LOCAL_DECIDER = "local";

/** Body shapes an alert endpoint can receive: Standard Webhooks JSON, or Slack's incoming-webhook message (docs/webhooks.md). */
export const ALERT_FORMATS = ["standard", "slack"] as const;
/** One of `ALERT_FORMATS`. */
export type AlertFormat = (typeof ALERT_FORMATS)[number];

/**
 * Types of the events an alert endpoint receives (docs/webhooks.md): `score.unsafe` for a score
 * that reached the endpoint's `min_score`, `webhook.test` for POST /api/webhooks/{id}/test.
 */
export const ALERT_EVENT_TYPES = ["score.unsafe", "webhook.test"] as const;
/** One of `ALERT_EVENT_TYPES`. */
export type AlertEventType = (typeof ALERT_EVENT_TYPES)[number];

/**
 * State of an alert delivery: `pending` (created, not tried yet), `retrying` (a try failed and
 * another is scheduled), `delivered` (the endpoint answered 2xx), `dead` (the retry budget is
 * spent or the endpoint refused for good: the dead-letter record).
 */
export const DELIVERY_STATES = ["pending", "retrying", "delivered", "dead"] as const;
/** One of `DELIVERY_STATES`. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/**
 * Roles of an organisation's members, weakest first (docs/decisions.md D15):
 * viewer < member < admin < owner. The dashboard server enforces them (dashboard/server/auth/roles.ts).
 */
export const ROLES = ["viewer", "member", "admin", "owner"] as const;
/** One of `ROLES`. */
export type Role = (typeof ROLES)[number];

/** True when `role` is at least `needed` in the order of `ROLES`; false for an unknown role. */
export function roleAtLeast(role: string, needed: Role): boolean {
  const rank = ROLES.indexOf(role as Role);
  return rank >= 0 && rank >= ROLES.indexOf(needed);
}

/**
 * What an API key may do (issue 32), a non-empty set per key (`api_keys.scopes`, checked by a
 * CHECK constraint): `ingest` logs calls (POST /internal/log, the proxy's key check, OTLP);
 * `read` reads the project's data through GET /api/* with personal data masked; `admin` changes
 * the project (policy, webhooks, re-scoring) and may read personal data raw (`reveal=true`,
 * audited). Each route declares the scope it needs (workers/api/src/routes/openapi.ts, `access.project`).
 */
export const API_KEY_SCOPES = ["ingest", "read", "admin"] as const;
/** One of `API_KEY_SCOPES`. */
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The scopes a member of `role` may put on a key (and so the most the dashboard grants by
 * default): owner and admin all three, member `ingest` and `read`, viewer `read` (a viewer
 * creates no key, but one made before a demotion keeps what a viewer may hold). The same mapping
 * backfilled the keys that existed before scopes (SQL function `sightline_role_key_scopes`,
 * migrations/*_api_key_scopes.sql).
 */
export function scopesForRole(role: Role): readonly ApiKeyScope[] {
  if (roleAtLeast(role, "admin")) return API_KEY_SCOPES;
  if (role === "member") return ["ingest", "read"];
  return ["read"];
}

/** True when every scope of `scopes` is in `allowed`. */
export function scopesWithin(scopes: readonly string[], allowed: readonly string[]): boolean {
  return scopes.every((s) => allowed.includes(s));
}

/** Thresholds of the Policy page's calibration view (GET /api/reviews/calibration): the Likert values from which a label would be `unsafe`. */
export const CALIBRATION_THRESHOLDS = [2, 3, 4, 5] as const;

/**
 * Scoring state of a logged request: `pending` until its scoring job was enqueued,
 * `queued` once the queue accepted it, `scored` once all six scores are written.
 * The sweep re-enqueues requests that stay `pending`/`queued` too long.
 */
export const SCORING_STATES = ["pending", "queued", "scored"] as const;

/** Where a stored cost came from (`cost_source`): the producer reported it, or Sightline priced it from `@pydantic/genai-prices`. */
export const COST_SOURCES = ["reported", "genai-prices"] as const;

/** States of a re-scoring job: `running` until every request of its range has been re-scored. */
export const RESCORE_STATES = ["running", "done"] as const;

/** Why a re-scoring job exists: asked for (`POST /api/rescore`) or a new scorer version deployed. */
export const RESCORE_REASONS = ["api", "upgrade"] as const;

/** What processing a payment webhook event did (`webhook_events.outcome`). */
export const PAYMENT_WEBHOOK_OUTCOMES = [
  /** The event changed the project's subscription row. */
  "applied",
  /** Kept for the record only (e.g. `invoice.payment_failed`). */
  "recorded",
  /** Older than the state already applied (out-of-order delivery), or for a replaced subscription. */
  "stale",
  /** No project matches the event's customer, subscription or `client_reference_id`. */
  "unmatched",
  /** Understood but not relevant (e.g. a price that is no configured tier, a one-time checkout). */
  "ignored",
] as const;

/** Scorers that judge a whole session (today only the jailbreak room's multi-turn view). */
export const SESSION_SCORERS = ["jailbreak_detection"] as const satisfies readonly ScorerName[];

/** Export formats: CSV (RFC 4180, one header row) or JSON Lines (one object per line). */
export const EXPORT_FORMATS = ["csv", "jsonl"] as const;
/** One of `EXPORT_FORMATS`. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
