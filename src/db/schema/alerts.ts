/**
 * Alert webhooks (issue 24 point 2, docs/webhooks.md): a project's endpoints and the deliveries
 * made to them. Kept beside the other tables (drizzle.config.ts lists it) so the alert tables form one
 * small aggregate.
 *
 * One delivery row per (score, endpoint): `saveScores` (src/db/request-scoring.ts) inserts it in the
 * statement that inserts the score, `ON CONFLICT DO NOTHING`, so a redelivered scoring job or a
 * re-run insert never makes a second one. The row is the delivery's whole record: its attempts,
 * last HTTP status or error, and its final state (`delivered` or `dead`, the dead-letter record).
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, smallint, text, unique, uuid } from "drizzle-orm/pg-core";
import { ALERT_EVENT_TYPES, ALERT_FORMATS, DELIVERY_STATES, SCORER_NAMES } from "../../enums";
import { ownedBy, timestamptz, timestamptzNow } from "./columns";
import { projectId, projectRecord } from "./projects";

/** A project's alert endpoint: where `score.unsafe` events are posted, and which scores qualify. */
export const alertEndpoints = pgTable(
  "alert_endpoints",
  {
    ...projectRecord(),
    /** https URL (http and loopback only when WEBHOOK_ALLOW_LOOPBACK is true, i.e. `npm run dev`). */
    url: text("url").notNull(),
    /** A score qualifies when its score_value >= this (Likert 1..5). */
    min_score: smallint("min_score").notNull(),
    /** Scorers that may alert; null: every scorer. */
    scorers: text("scorers", { enum: SCORER_NAMES }).array(),
    format: text("format", { enum: ALERT_FORMATS }).notNull(),
    /**
     * Signing secret, `whsec_` + base64 of 24 random bytes (Standard Webhooks). Stored as issued:
     * the delivery worker needs the key itself to sign (an HMAC cannot be checked against a hash),
     * and the API returns it only once, in the create answer.
     */
    secret: text("secret").notNull(),
    created_at: timestamptzNow("created_at"),
  },
  (t) => [index("alert_endpoints_project_idx").on(t.project_id, t.created_at), check("alert_endpoints_min_score_range", sql`${t.min_score} BETWEEN 1 AND 5`)],
);

/** One event sent (or being sent) to one endpoint. */
export const alertDeliveries = pgTable(
  "alert_deliveries",
  {
    /** Also the Standard Webhooks `webhook-id` (the same on every retry, so receivers can de-duplicate). */
    id: uuid("id").primaryKey(),
    endpoint_id: ownedBy(uuid("endpoint_id").notNull(), () => alertEndpoints.id),
    project_id: projectId(),
    /**
     * The score that triggered it (`safety_scores.id`); null for a test event (POST
     * /api/webhooks/{id}/test). No foreign key to the partitioned table: retention deletes
     * deliveries with their scores (src/upkeep/retention.ts).
     */
    score_id: uuid("score_id"),
    /** One of `ALERT_EVENT_TYPES`: `score.unsafe`, or `webhook.test` (typed in TypeScript only: a text column). */
    event_type: text("event_type", { enum: ALERT_EVENT_TYPES }).notNull(),
    state: text("state", { enum: DELIVERY_STATES }).notNull().default("pending"),
    /** HTTP attempts made so far. */
    attempts: integer("attempts").notNull().default(0),
    /** HTTP status of the last attempt; null when it got no answer (network error, timeout). */
    last_status: smallint("last_status"),
    /** Why the last attempt failed (e.g. `timeout after 10000 ms`, `HTTP 500`); null after success. */
    last_error: text("last_error"),
    created_at: timestamptzNow("created_at"),
    last_attempt_at: timestamptz("last_attempt_at"),
    /** When the next attempt is due (state `retrying`). */
    next_attempt_at: timestamptz("next_attempt_at"),
  },
  (t) => [
    // Exactly one delivery per (score, endpoint); test events (score_id null) never collide.
    unique("alert_deliveries_score_endpoint_key").on(t.score_id, t.endpoint_id),
    index("alert_deliveries_endpoint_created_idx").on(t.endpoint_id, t.created_at.desc()),
    // The sweep's few open deliveries (src/db/alerts.ts `claimStaleDeliveries`).
    index("alert_deliveries_open_idx").on(t.created_at).where(sql`${t.state} IN ('pending', 'retrying')`),
  ],
);
