/**
 * Hourly rollups of requests and scores per project, what the overview reads. Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { bigint, integer, numeric, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { SCORER_NAMES } from "../../enums";
import { timestamptz } from "./columns";
import { projectId } from "./projects";

/** The key columns of an hourly rollup: the project and the start of the UTC hour (`date_trunc('hour', created_at, 'UTC')`). */
const projectHour = () => ({ project_id: projectId(), hour: timestamptz("hour").notNull() });

/**
 * Hourly request rollup per project (src/db/rollups.ts): what the overview reads for whole hours
 * instead of aggregating every `llm_requests` row. Exact: every statement that writes
 * `llm_requests` (ingest, single and batch; the scorer's cost fill) updates it in the same
 * statement; `sightline_rebuild_rollups()` (migrations/0004) recomputes it from the rows.
 */
export const requestRollups = pgTable(
  "request_rollups",
  {
    ...projectHour(),
    requests: integer("requests").notNull(),
    /** Requests with `is_error`. */
    errors: integer("errors").notNull(),
    /** Sum of the known `cost_usd`, US dollars. */
    cost_usd: numeric("cost_usd", { precision: 30, scale: 10, mode: "number" }).notNull(),
    /** Requests whose cost is unknown (`cost_usd` null): not in `cost_usd`. */
    unpriced: integer("unpriced").notNull().default(0),
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
    ...projectHour(),
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
