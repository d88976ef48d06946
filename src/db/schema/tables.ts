/**
 * PostgreSQL schema (drizzle-orm). Migrations in `migrations/` are generated from this file
 * by `npm run db:generate` (drizzle-kit) and never edited by hand once applied.
 *
 * Field names of docs/interface.md section 2 keep their names and meanings there.
 * Every time-range query is served by an index led by `(project_id, created_at)`; list
 * order is `created_at DESC, id DESC` (docs/decisions.md D6).
 */
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  uniqueIndex,
  customType,
  uuid,
} from "drizzle-orm/pg-core";
import { REVIEW_VERDICTS, SCORE_LABELS, SCORER_NAMES, STORE_PII_MODES, TIERS } from "../../enums";
import { ownedBy, timestamptz, timestamptzNow } from "./columns";

// The enums are declared once in src/enums.ts; re-exported for the modules that read them with the tables.
export { REVIEW_VERDICTS, SCORE_LABELS, STORE_PII_MODES, TIERS };

const createdAt = () => timestamptzNow("created_at");

/** A project: the unit of scoping for keys, requests, scores and the subscription. */
export const projects = pgTable("projects", {
  id: uuid("id").primaryKey(),
  name: text("name").notNull(),
  created_at: createdAt(),
});

/** `project_id uuid NOT NULL`, a foreign key to `projects.id` deleted with the project. */
export const projectId = () => ownedBy(uuid("project_id").notNull(), () => projects.id);

/** `project_id uuid PRIMARY KEY` to `projects.id`, deleted with the project: a table of one row per project. */
export const projectKey = () => ownedBy(uuid("project_id").primaryKey(), () => projects.id);

/**
 * The first columns of a project's records: `id uuid PRIMARY KEY` (a UUIDv7, chosen by the
 * writer: time-ordered, so inserts stay local in the primary key index) and `projectId()`.
 */
export const projectRecord = () => ({ id: uuid("id").primaryKey(), project_id: projectId() });

/**
 * API keys: `slk_` + 48 lowercase hex characters; only the SHA-256 hex digest is stored,
 * with a display hint (`slk_1a2b…9f0e`). `expires_at` is set by rotation (60 s grace);
 * `revoked_at` refuses the key at once. Deleting the row deletes the key.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    ...projectRecord(),
    name: text("name").notNull().default("default"),
    key_hash: text("key_hash").notNull().unique("api_keys_key_hash_key"),
    key_hint: text("key_hint").notNull(),
    created_at: createdAt(),
    expires_at: timestamptz("expires_at"),
    revoked_at: timestamptz("revoked_at"),
    /** The key that replaced this one by rotation, if any. */
    replaced_by: uuid("replaced_by"),
    /** Who created the key in the dashboard (email), or null (CLI, API, demo seed). */
    created_by: text("created_by"),
    /** Last accepted use, recorded at most once a minute per key (src/db/key-usage.ts). */
    last_used_at: timestamptz("last_used_at"),
  },
  (t) => [index("api_keys_project_idx").on(t.project_id, t.created_at)],
);

/**
 * Scoring state of a logged request: `pending` until its scoring job was enqueued,
 * `queued` once the queue accepted it, `scored` once all six scores are written.
 * The sweep re-enqueues requests that stay `pending`/`queued` too long.
 */
export const SCORING_STATES = ["pending", "queued", "scored"] as const;

/**
 * Characters of each body's text that the full-text index covers: the first 50,000 of the
 * request's and the first 50,000 of the response's. PostgreSQL refuses a tsvector over 1 MiB
 * (SQLSTATE 54000, https://www.postgresql.org/docs/current/textsearch-limitations.html), which
 * a 1.5 MB answer of 150k distinct numbers or 115k distinct words exceeds; 100,000 characters
 * make at most about 650 KB of tsvector even when every word is distinct and every character
 * 4 bytes of UTF-8 (measured: 600 KB for 50,000 one-character 4-byte words). The call itself is
 * always stored whole; only words past this point cannot be found with `q`.
 */
export const SEARCH_INDEXED_CHARS = 50_000;

/**
 * The text-search document of a request: the JSON string values (message contents, tool
 * arguments, documents; not keys, numbers or booleans) of each body, joined with spaces in
 * jsonb order (`sightline_search_text`, migrations/0005_bounded_search_document.sql), the
 * first `SEARCH_INDEXED_CHARS` characters of each, as `simple`-config lexemes (no stemming, no
 * stop words: prompts are in any language). Stored as the generated column `search_tsv` with a
 * GIN index, which serves `q` (`websearch_to_tsquery('simple', q)`).
 * Chosen over pg_trgm: an index on words of the string values is a fraction of the size of a
 * trigram index on the whole JSON text, and does not match JSON keys such as "role". Stored
 * rather than an expression index because ANALYZE keeps word frequencies of a tsvector column
 * (not of an expression): without them the planner guessed 0.5% of rows for every word and, for
 * a rare word, walked the whole list index recomputing the document per row (tens of seconds
 * at 1M rows, bench/results/dashboard-scale.md).
 */
const requestSearchDocument = sql.raw(
  `(to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(request_body, ${SEARCH_INDEXED_CHARS}), '')) || ` +
    `to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(response_body, ${SEARCH_INDEXED_CHARS}), '')))`,
);

/** A PostgreSQL `tsvector` column. */
const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/** One logged LLM call (docs/interface.md section 2.3, `llm_requests`). */
export const llmRequests = pgTable(
  "llm_requests",
  {
    ...projectRecord(),
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
    enqueued_at: timestamptz("enqueued_at"),
    /**
     * The call failed: `metadata.status` is `"error"` (the capture convention of the ingest
     * contract: SDKs and the proxy write `status: "success" | "error"`). Stored so the status
     * filter, the error rate and their indexes need no JSON access. Absent status counts as ok.
     */
    /** Full-text document of both bodies (`requestSearchDocument`); never selected by the API. */
    search_tsv: tsvector("search_tsv").notNull().generatedAlwaysAs(requestSearchDocument),
    is_error: boolean("is_error").notNull().generatedAlwaysAs(sql`coalesce(metadata ->> 'status' = 'error', false)`),
  },
  (t) => [
    // List order; the trailing columns make the overview's per-bucket aggregates (count, errors,
    // latency, cost) index-only scans of this same index (a separate covering index in
    // (project_id, created_at) order competed with it for the list and lost the exact order).
    index("llm_requests_project_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc(), t.latency_ms, t.cost_usd, t.is_error),
    index("llm_requests_project_model_created_idx").on(t.project_id, t.model, t.created_at.desc(), t.id.desc()),
    index("llm_requests_project_provider_created_idx").on(t.project_id, t.provider, t.created_at.desc(), t.id.desc()),
    // Failed calls are few: a partial index serves `status=error` lists without reading ok rows.
    index("llm_requests_project_errors_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc()).where(sql`${t.is_error}`),
    // Full-text search over the string values of both bodies (see `requestSearchDocument`).
    index("llm_requests_search_idx").using("gin", t.search_tsv),
    index("llm_requests_unscored_idx").on(t.created_at).where(sql`${t.scoring_state} <> 'scored'`),
  ],
);

/** One scorer's verdict on one request (docs/interface.md section 2.4, `safety_scores`). */
export const safetyScores = pgTable(
  "safety_scores",
  {
    id: uuid("id").primaryKey(),
    request_id: ownedBy(uuid("request_id").notNull(), () => llmRequests.id),
    /** Copied from the request so project-scoped queries need no join. */
    project_id: projectId(),
    /** Typed in TypeScript only (a text column): one of the six scorers of src/scoring. */
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    /** Likert 1..5; null when `score_label` is `unscored`. */
    score_value: smallint("score_value"),
    score_label: text("score_label", { enum: SCORE_LABELS }).notNull(),
    rationale: text("rationale").notNull(),
    /**
     * Time bucket of the score: when the request was first scored. A re-score keeps the
     * `created_at` of the score it replaces, so lists, counts and the hourly rollups keep it in
     * the same hour; `scored_at` says when it was made.
     */
    created_at: createdAt(),
    /** The scorer's version that made this score (src/scoring/version.ts); `unversioned` before versions existed. */
    scorer_version: text("scorer_version").notNull().default("unversioned"),
    /** The project policy's `unsafe_at` the label was set with (Likert 3..5; docs/policy.md). */
    unsafe_at: smallint("unsafe_at").notNull().default(4),
    /** Version of the project policy in force when scored (`project_policies.version`); 0 = the default policy. */
    policy_version: integer("policy_version").notNull().default(0),
    /** When this score was computed (first scoring or re-scoring). */
    scored_at: timestamptzNow("scored_at"),
    /** Null for the current score of (request, scorer); set when a re-score replaced it (history). */
    superseded_at: timestamptz("superseded_at"),
  },
  (t) => [
    // One current score per (request, scorer); superseded ones are history (docs/rescoring.md).
    uniqueIndex("safety_scores_current_key").on(t.request_id, t.scorer_name).where(sql`${t.superseded_at} IS NULL`),
    // At-least-once delivery: the same scorer version under the same policy writes one row.
    uniqueIndex("safety_scores_request_scorer_version_key").on(t.request_id, t.scorer_name, t.scorer_version, t.policy_version),
    index("safety_scores_project_created_idx").on(t.project_id, t.created_at.desc(), t.id.desc()).where(sql`${t.superseded_at} IS NULL`),
    index("safety_scores_project_scorer_created_idx").on(t.project_id, t.scorer_name, t.created_at.desc()).where(sql`${t.superseded_at} IS NULL`),
    // Covers the overview's unsafe rate per scorer and bucket as an index-only scan.
    index("safety_scores_project_created_label_idx").on(t.project_id, t.created_at, t.scorer_name, t.score_label).where(sql`${t.superseded_at} IS NULL`),
    check("safety_scores_value_range", sql`${t.score_value} IS NULL OR ${t.score_value} BETWEEN 1 AND 5`),
  ],
);

/**
 * Hourly request rollup per project (src/db/rollups.ts): what the overview reads for whole hours
 * instead of aggregating every `llm_requests` row. Exact: every statement that writes
 * `llm_requests` (ingest, single and batch; the scorer's cost fill) updates it in the same
 * statement; `sightline_rebuild_rollups()` (migrations/0004) recomputes it from the rows.
 */
export const requestRollups = pgTable(
  "request_rollups",
  {
    project_id: projectId(),
    /** Start of the UTC hour (`date_trunc('hour', created_at, 'UTC')`). */
    hour: timestamptz("hour").notNull(),
    requests: integer("requests").notNull(),
    /** Requests with `is_error`. */
    errors: integer("errors").notNull(),
    /** Sum of `cost_usd`, US dollars. */
    cost_usd: numeric("cost_usd", { precision: 30, scale: 10, mode: "number" }).notNull(),
    prompt_tokens: bigint("prompt_tokens", { mode: "number" }).notNull(),
    completion_tokens: bigint("completion_tokens", { mode: "number" }).notNull(),
    /** Sum of `latency_ms` (the mean is latency_ms_sum / requests). */
    latency_ms_sum: bigint("latency_ms_sum", { mode: "number" }).notNull(),
    /** Counts per latency bucket of `LATENCY_BOUNDS_MS` (src/db/rollups.ts): 160 entries. */
    latency_hist: integer("latency_hist").array().notNull(),
  },
  (t) => [primaryKey({ name: "request_rollups_pkey", columns: [t.project_id, t.hour] })],
);

/**
 * Hourly score rollup per project and scorer (src/db/rollups.ts), by the score's `created_at`:
 * maintained by `saveScores` in the statement that inserts the scores (only rows it really
 * inserted count, so a redelivered or re-swept job adds nothing).
 */
export const scoreRollups = pgTable(
  "score_rollups",
  {
    project_id: projectId(),
    hour: timestamptz("hour").notNull(),
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    /** Score rows written (every label). */
    scores: integer("scores").notNull(),
    unsafe: integer("unsafe").notNull(),
    unscored: integer("unscored").notNull(),
    /** The 1-5 distribution: rows with `score_value` 1..5. */
    value_1: integer("value_1").notNull(),
    value_2: integer("value_2").notNull(),
    value_3: integer("value_3").notNull(),
    value_4: integer("value_4").notNull(),
    value_5: integer("value_5").notNull(),
  },
  (t) => [primaryKey({ name: "score_rollups_pkey", columns: [t.project_id, t.hour, t.scorer_name] })],
);

/**
 * A reviewer's verdict on one safety score (dashboard safety triage): the labelled data a safety
 * team exports. One verdict per score; a new verdict replaces the old one, with its reviewer
 * and time. `request_id` and `project_id` are copied from the score so list filters need no join.
 */
export const scoreReviews = pgTable(
  "score_reviews",
  {
    score_id: ownedBy(uuid("score_id").primaryKey(), () => safetyScores.id),
    request_id: ownedBy(uuid("request_id").notNull(), () => llmRequests.id),
    project_id: projectId(),
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    verdict: text("verdict", { enum: REVIEW_VERDICTS }).notNull(),
    /** Who reviewed: the dashboard user's email or id, as the caller states it. */
    reviewer: text("reviewer").notNull(),
    reviewed_at: timestamptzNow("reviewed_at"),
  },
  (t) => [index("score_reviews_project_verdict_request_idx").on(t.project_id, t.verdict, t.request_id)],
);

/**
 * A project's policy (docs/policy.md): the document of `PUT /api/policy` (src/policy/schema.ts),
 * stored whole. `version` starts at 1 and grows by one per change; scores record the version
 * they were made under (`safety_scores.policy_version`). No row: the default policy (version 0).
 */
export const projectPolicies = pgTable("project_policies", {
  project_id: projectKey(),
  policy: jsonb("policy").notNull(),
  version: integer("version").notNull().default(1),
  updated_at: timestamptzNow("updated_at"),
});

/** States of a re-scoring job: `running` until every request of its range has been re-scored. */
export const RESCORE_STATES = ["running", "done"] as const;

/** Why a re-scoring job exists: asked for (`POST /api/rescore`) or a new scorer version deployed. */
export const RESCORE_REASONS = ["api", "upgrade"] as const;

/**
 * A re-scoring job (docs/rescoring.md): the project's requests with `since <= created_at < until`,
 * walked in (created_at, id) order in bounded chunks by the scorer worker. The cursor (last
 * request done) and `done` move in the transaction that writes a chunk's scores, so a restart
 * resumes after the last chunk written.
 */
export const rescoreJobs = pgTable(
  "rescore_jobs",
  {
    ...projectRecord(),
    since: timestamptz("since").notNull(),
    until: timestamptz("until").notNull(),
    reason: text("reason", { enum: RESCORE_REASONS }).notNull().default("api"),
    state: text("state", { enum: RESCORE_STATES }).notNull().default("running"),
    /** Requests in the range when the job was created. */
    total: integer("total").notNull(),
    /** Requests re-scored so far. */
    done: integer("done").notNull().default(0),
    cursor_created_at: timestamptz("cursor_created_at"),
    cursor_id: uuid("cursor_id"),
    created_at: createdAt(),
    /** Last progress (or creation): the scheduled handler re-sends jobs that stopped moving. */
    updated_at: timestamptzNow("updated_at"),
    finished_at: timestamptz("finished_at"),
  },
  (t) => [index("rescore_jobs_state_updated_idx").on(t.state, t.updated_at), index("rescore_jobs_project_created_idx").on(t.project_id, t.created_at.desc())],
);

/**
 * The scorer versions each deployment brought (src/scoring/version.ts), one row per distinct set:
 * the scorer worker's scheduled handler inserts the running set and, when it is new and an
 * older set exists, re-scores the last days (RESCORE_ON_UPGRADE, docs/rescoring.md).
 */
export const scorerDeployments = pgTable("scorer_deployments", {
  /** SHA-256 hex of the JSON of `versions`. */
  digest: text("digest").primaryKey(),
  versions: jsonb("versions").notNull(),
  first_seen_at: timestamptzNow("first_seen_at"),
});

/**
 * One subscription per project (docs/interface.md section 2.5, `subscriptions`), created as `free` with the
 * project. Maintained by the payment webhook; `requests_this_period` is counted by ingest.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    project_id: projectKey(),
    tier: text("tier", { enum: TIERS }).notNull().default("free"),
    /** Provider subscription status (`active`, `past_due`, `canceled`...); `active` for free. */
    status: text("status").notNull().default("active"),
    payment_customer_id: text("payment_customer_id"),
    payment_subscription_id: text("payment_subscription_id"),
    requests_this_period: bigint("requests_this_period", { mode: "number" }).notNull().default(0),
    /** Start of the current period (UTC). */
    period_start_at: timestamptz("period_start_at").notNull(),
    /** When the counter resets: next calendar month (UTC) for free, Stripe's period end for paid. */
    period_reset_at: timestamptz("period_reset_at").notNull(),
    /** Creation time (Unix seconds) of the newest provider event applied: older events are ignored. */
    last_event_created: bigint("last_event_created", { mode: "number" }),
    updated_at: timestamptzNow("updated_at"),
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
    received_at: timestamptzNow("received_at"),
  },
  (t) => [index("webhook_events_project_received_idx").on(t.project_id, t.received_at.desc())],
);
