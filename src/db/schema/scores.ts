/**
 * Safety scores (`safety_scores`) and reviewers' verdicts on them (`score_reviews`). Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { REVIEW_VERDICTS, SCORE_LABELS, SCORER_NAMES } from "../../enums";
import { timestamptz, timestamptzNow, createdAt } from "./columns";
import { projectId } from "./projects";

/**
 * One scorer's verdict on one request (docs/interface.md section 2.4, `safety_scores`),
 * partitioned by month of `created_at` like `llm_requests` (docs/storage.md), whose
 * `created_at` it carries: a request and its scores live in the same month's partitions, so one
 * time bound prunes both sides of a join. No foreign key to `llm_requests` (one to a
 * partitioned table would make dropping a month's partition scan this table): the writer
 * (`saveScores`) only scores stored requests and retention deletes a request's scores with it
 * (src/upkeep/retention.ts).
 */
export const safetyScores = pgTable(
  "safety_scores",
  {
    id: uuid("id").notNull(),
    /** The scored request (`llm_requests.id`); no foreign key (see above). */
    request_id: uuid("request_id").notNull(),
    /** Copied from the request so project-scoped queries need no join. */
    project_id: projectId(),
    /** Typed in TypeScript only (a text column): one of the six scorers of src/scoring. */
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    /** Likert 1..5; null when `score_label` is `unscored`. */
    score_value: smallint("score_value"),
    score_label: text("score_label", { enum: SCORE_LABELS }).notNull(),
    rationale: text("rationale").notNull(),
    /**
     * Time bucket of the score and its partition key: the scored request's `created_at` (when
     * the call was made), so a call and its scores fall in the same hour of the lists, counts
     * and hourly rollups, and in the same month's partitions. A re-score keeps it; `scored_at`
     * says when the score was made.
     */
    created_at: createdAt(),
    /** The scorer's version that made this score (src/scoring/version.ts); `unversioned` before versions existed. */
    scorer_version: text("scorer_version").notNull().default("unversioned"),
    /** The project policy's `unsafe_at` the label was set with (Likert 3..5; docs/policy.md). */
    unsafe_at: smallint("unsafe_at").notNull().default(4),
    /** Version of the project policy in force when scored (`project_policies.version`); 0 = the default policy. */
    policy_version: integer("policy_version").notNull().default(0),
    /**
     * Which tier decided this score: `local` (the scorer alone) or the id of the guard model
     * that decided it (docs/scoring.md "Guard-model tier"); null for scores stored before
     * the tier existed.
     */
    decided_by: text("decided_by"),
    /** When this score was computed (first scoring or re-scoring). */
    scored_at: timestamptzNow("scored_at"),
    /** Null for the current score of (request, scorer); set when a re-score replaced it (history). */
    superseded_at: timestamptz("superseded_at"),
  },
  (t) => [
    primaryKey({ name: "safety_scores_pkey", columns: [t.id, t.created_at] }),
    // One current score per (request, scorer); superseded ones are history (docs/rescoring.md).
    // `created_at` (the request's, one value per request) completes the key as partitioning needs.
    // Built with INCLUDE (score_value, score_label) by migration 0024, which drizzle-kit does not
    // model: the score chips of the export and of the request list are index-only scans.
    uniqueIndex("safety_scores_current_key").on(t.request_id, t.scorer_name, t.created_at).where(sql`${t.superseded_at} IS NULL`),
    // At-least-once delivery: the same scorer version under the same policy writes one row.
    uniqueIndex("safety_scores_request_scorer_version_key").on(t.request_id, t.scorer_name, t.scorer_version, t.policy_version, t.created_at),
    // The one project index of current scores: the score list's order (`created_at DESC, id
    // DESC`, paging.ts) read from it, a scorer or label filter applied inside it, and the
    // overview's and summary's counts per scorer and label as index-only scans. It replaced three
    // (list order, per scorer, per label): 1,144 bytes per call at 5M calls, this one 527 at 10M
    // (docs/storage.md "At scale: what a call weighs").
    index("safety_scores_project_current_idx")
      .on(t.project_id, t.created_at.desc(), t.id.desc(), t.scorer_name, t.score_label)
      .where(sql`${t.superseded_at} IS NULL`),
    check("safety_scores_value_range", sql`${t.score_value} IS NULL OR ${t.score_value} BETWEEN 1 AND 5`),
  ],
);

/**
 * A reviewer's verdict on one scorer's judgement of one call (dashboard safety triage): the
 * labelled data a safety team exports (`GET /api/reviews/export`). Keyed by (request, scorer),
 * not by the score row, so the verdict stays with the call when a re-score or a policy change
 * replaces the score (docs/rescoring.md); `score_id` and the score columns record what was
 * reviewed, so a reader can tell when the score changed since. A new verdict replaces the old
 * one, with its reviewer, time and reviewed score.
 */
export const scoreReviews = pgTable(
  "score_reviews",
  {
    /** The reviewed request; no foreign key to the partitioned table: retention deletes reviews with their requests. */
    request_id: uuid("request_id").notNull(),
    scorer_name: text("scorer_name", { enum: SCORER_NAMES }).notNull(),
    project_id: projectId(),
    /** The score the reviewer saw (current then; history once re-scored); no foreign key, as `request_id`. */
    score_id: uuid("score_id").notNull(),
    verdict: text("verdict", { enum: REVIEW_VERDICTS }).notNull(),
    /** Who reviewed: the dashboard user's email or id, as the caller states it. */
    reviewer: text("reviewer").notNull(),
    reviewed_at: timestamptzNow("reviewed_at"),
    /** The reviewed score's value (Likert 1..5; null when it was `unscored`). */
    score_value: smallint("score_value"),
    /** The reviewed score's label. */
    score_label: text("score_label", { enum: SCORE_LABELS }).notNull(),
    /** The scorer version that made the reviewed score. */
    scorer_version: text("scorer_version").notNull(),
    /** The policy version the reviewed score was made under (0 = the default policy). */
    policy_version: integer("policy_version").notNull(),
  },
  (t) => [
    primaryKey({ name: "score_reviews_pkey", columns: [t.request_id, t.scorer_name] }),
    index("score_reviews_project_verdict_request_idx").on(t.project_id, t.verdict, t.request_id),
    index("score_reviews_score_idx").on(t.score_id),
  ],
);
