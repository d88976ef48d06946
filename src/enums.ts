/**
 * The enumerations that the API, its database schema and the dashboard (server and browser)
 * share, declared once here and imported everywhere else (issue 25: "enums are declared once").
 * Dependency-free on purpose: the browser bundle imports this module.
 *
 * Scorer names stay declared beside the scorer contract (src/scoring/types.ts, docs/interface.md
 * section 1.3) and are re-exported here so every consumer has one import path.
 */
export { SCORER_NAMES, type ScorerName } from "./scoring/types";

/** Label of a safety score: 4-5 `unsafe`, 1-3 `safe`, `unscored` when there was nothing to judge (docs/decisions.md D10). */
export const SCORE_LABELS = ["safe", "unsafe", "unscored"] as const;
/** One of `SCORE_LABELS`. */
export type ScoreLabel = (typeof SCORE_LABELS)[number];

/** A reviewer's verdict on a safety score (dashboard triage). */
export const REVIEW_VERDICTS = ["false_positive", "confirmed"] as const;
/** One of `REVIEW_VERDICTS`. */
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/** Subscription tiers (docs/interface.md sections 2.5 and 8). */
export const TIERS = ["free", "pro", "team", "enterprise"] as const;
/** One of `TIERS`. */
export type Tier = (typeof TIERS)[number];

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
