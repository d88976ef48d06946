/**
 * PostgreSQL schema (drizzle-orm). Migrations in `migrations/` are generated from this file
 * by `npm run db:generate` (drizzle-kit) and never edited by hand once applied.
 *
 * Field names of the interface spec (section 2) keep their spec names and meanings.
 * Every time-range query is served by an index led by `(project_id, created_at)`; list
 * order is `created_at DESC, id DESC` (DESIGN.md, "Time-organised storage").
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { SCORER_NAMES } from "../scoring/types";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

/** A project: the unit of scoping for keys, requests, scores and the subscription. */
export const projects = pgTable("projects", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  created_at: createdAt(),
});

/**
 * API keys: `slk_` + 48 lowercase hex characters; only the SHA-256 hex digest is stored,
 * with a display hint (`slk_1a2b…9f0e`). `expires_at` is set by rotation (60 s grace);
 * `revoked_at` refuses the key at once. Deleting the row deletes the key.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey(),
    project_id: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    name: text("name").notNull().default("default"),
    key_hash: text("key_hash").notNull().unique("api_keys_key_hash_key"),
    key_hint: text("key_hint").notNull(),
    created_at: createdAt(),
    expires_at: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    revoked_at: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** The key that replaced this one by rotation, if any. */
    replaced_by: uuid("replaced_by"),
    /** Who created the key in the dashboard (email), or null (CLI, API, demo seed). */
    created_by: text("created_by"),
    /** Last accepted use, recorded at most once a minute per key (src/db/key-usage.ts). */
    last_used_at: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [index("api_keys_project_idx").on(t.project_id, t.created_at)],
);

/**
 * Scoring state of a logged request: `pending` until its scoring job was enqueued,
 * `queued` once the queue accepted it, `scored` once all six scores are written.
 * The sweep re-enqueues requests that stay `pending`/`queued` too long.
 */
export const SCORING_STATES = ["pending", "queued", "scored"] as const;

/** Label of a safety score: 4-5 `unsafe`, 1-3 `safe`, `unscored` when there was nothing to judge. */
export const SCORE_LABELS = ["safe", "unsafe", "unscored"] as const;

/** One logged LLM call (spec section 2, `llm_requests`). */
export const llmRequests = pgTable(
  "llm_requests",
  {
    /** UUIDv7: time-ordered, so inserts stay local in the primary key index. */
    id: uuid("id").primaryKey(),
    project_id: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    model: text("model").notNull(),
    provider: text("provider").notNull(),
    prompt_tokens: integer("prompt_tokens").notNull().default(0),
    completion_tokens: integer("completion_tokens").notNull().default(0),
    /** Cost in US dollars, exact to 1e-10 USD. */
    cost_usd: numeric("cost_usd", { precision: 20, scale: 10, mode: "number" }).notNull().default(0),
    /** Wall-clock latency of the call in milliseconds. */
    latency_ms: integer("latency_ms").notNull().default(0),
    request_body: jsonb("request_body").notNull(),
    response_body: jsonb("response_body"),
    /** Capture-side extras: status, error, stream, ttft_ms, token_count_source, sdk. */
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    created_at: createdAt(),
    scoring_state: text("scoring_state", { enum: SCORING_STATES }).notNull().default("pending"),
    /** When the request was last handed to the scoring queue (null: never). */
    enqueued_at: timestamp("enqueued_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("llm_requests_project_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc()),
    index("llm_requests_project_model_created_idx").on(t.project_id, t.model, t.created_at.desc(), t.id.desc()),
    index("llm_requests_unscored_idx")
      .on(t.created_at)
      .where(sql`${t.scoring_state} <> 'scored'`),
  ],
);

/** One scorer's verdict on one request (spec section 2, `safety_scores`). */
export const safetyScores = pgTable(
  "safety_scores",
  {
    id: uuid("id").primaryKey(),
    request_id: uuid("request_id")
      .notNull()
      .references(() => llmRequests.id, { onDelete: "cascade" }),
    /** Copied from the request so project-scoped queries need no join. */
    project_id: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    /** Typed in TypeScript only (a text column): one of the six scorers of src/scoring. */
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    /** Likert 1..5; null when `score_label` is `unscored`. */
    score_value: smallint("score_value"),
    score_label: text("score_label", { enum: SCORE_LABELS }).notNull(),
    rationale: text("rationale").notNull(),
    created_at: createdAt(),
  },
  (t) => [
    unique("safety_scores_request_scorer_key").on(t.request_id, t.scorer_name),
    index("safety_scores_project_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc()),
    index("safety_scores_project_scorer_created_idx").on(t.project_id, t.scorer_name, t.created_at.desc()),
    check("safety_scores_value_range", sql`${t.score_value} IS NULL OR ${t.score_value} BETWEEN 1 AND 5`),
  ],
);

/** Subscription tiers (spec section 2 and 8). */
export const TIERS = ["free", "pro", "team", "enterprise"] as const;

/**
 * One subscription per project (spec section 2, `subscriptions`), created as `free` with the
 * project. Maintained by the payment webhook; `requests_this_period` is counted by ingest.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    project_id: uuid("project_id")
      .primaryKey()
      .references(() => projects.id, { onDelete: "cascade" }),
    tier: text("tier", { enum: TIERS }).notNull().default("free"),
    /** Provider subscription status (`active`, `past_due`, `canceled`...); `active` for free. */
    status: text("status").notNull().default("active"),
    payment_customer_id: text("payment_customer_id"),
    payment_subscription_id: text("payment_subscription_id"),
    requests_this_period: bigint("requests_this_period", { mode: "number" }).notNull().default(0),
    /** Start of the current period (UTC). */
    period_start_at: timestamp("period_start_at", { withTimezone: true, mode: "date" }).notNull(),
    /** When the counter resets: next calendar month (UTC) for free, Stripe's period end for paid. */
    period_reset_at: timestamp("period_reset_at", { withTimezone: true, mode: "date" }).notNull(),
    /** Creation time (Unix seconds) of the newest provider event applied: older events are ignored. */
    last_event_created: bigint("last_event_created", { mode: "number" }),
    updated_at: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  // Webhooks find the project by the provider's ids; each customer and subscription belongs
  // to one project (NULLs do not collide).
  (t) => [
    uniqueIndex("subscriptions_payment_customer_idx").on(t.payment_customer_id),
    uniqueIndex("subscriptions_payment_subscription_idx").on(t.payment_subscription_id),
  ],
);

/** What processing a webhook event did (`webhook_events.outcome`). */
export const WEBHOOK_OUTCOMES = [
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

/**
 * Payment provider events already processed, one row per event id, so a redelivered event is
 * recognised and does nothing (Stripe delivers at least once). The row is written in the same
 * transaction as the event's effect on `subscriptions`.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    /** The provider's event id (Stripe `evt_...`). */
    id: text("id").primaryKey(),
    /** Event type, e.g. `customer.subscription.updated`. */
    type: text("type").notNull(),
    /** When the provider created the event, Unix seconds. */
    created: bigint("created", { mode: "number" }).notNull(),
    /** Id of the event's object at the provider (`cs_...`, `sub_...`, `in_...`). */
    object_id: text("object_id"),
    /** The project the event was matched to, if any. */
    project_id: uuid("project_id").references(() => projects.id, { onDelete: "set null" }),
    outcome: text("outcome", { enum: WEBHOOK_OUTCOMES }).notNull(),
    received_at: timestamp("received_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("webhook_events_project_received_idx").on(t.project_id, t.received_at.desc())],
);
