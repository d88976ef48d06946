/**
 * Scores of whole conversations (`session_scores`, docs/sessions.md). Part of the PostgreSQL
 * schema (drizzle-orm, src/db/schema/index.ts); migrations/ is generated from it by
 * `npm run db:generate`. Written only by the scorer worker (src/db/session-scores.ts), after it
 * scored a call that carries `metadata.session_id`.
 */
import { sql } from "drizzle-orm";
import { check, integer, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { SCORE_LABELS, SESSION_SCORERS } from "../../enums";
import { timestamptzNow } from "./columns";
import { projectId } from "./projects";

/** Most calls of one session that GET /api/sessions/{session_id} returns (the oldest first; `truncated` says when more exist). */
export const MAX_SESSION_CALLS = 500;

/**
 * One scorer's verdict on one conversation: the session's calls (`metadata.session_id`) judged
 * together, latest state only (re-written after each scored call of the session).
 */
export const sessionScores = pgTable(
  "session_scores",
  {
    project_id: projectId(),
    /** The session id the client supplied (`metadata.session_id`). */
    session_id: text("session_id").notNull(),
    scorer_name: text("scorer_name", { enum: SESSION_SCORERS }).notNull(),
    /** Likert 1..5. */
    score_value: smallint("score_value").notNull(),
    score_label: text("score_label", { enum: SCORE_LABELS }).notNull(),
    rationale: text("rationale").notNull(),
    /** `local` (the session rules) or the id of the guard model that decided it. */
    decided_by: text("decided_by").notNull(),
    /** Calls (turns) of the session judged. */
    turns: integer("turns").notNull(),
    updated_at: timestamptzNow("updated_at"),
  },
  (t) => [primaryKey({ columns: [t.project_id, t.session_id, t.scorer_name] }), check("session_scores_value_range", sql`${t.score_value} BETWEEN 1 AND 5`)],
);
