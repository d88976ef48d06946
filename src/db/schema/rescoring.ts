/**
 * Re-scoring jobs and the scorer versions each deployment brought (docs/rescoring.md). Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { index, integer, jsonb, pgTable, text, uuid } from "drizzle-orm/pg-core";
import { RESCORE_REASONS, RESCORE_STATES } from "../../enums";
import { timestamptz, timestamptzNow, createdAt } from "./columns";
import { projectRecord } from "./projects";

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
