/**
 * Guard-model calls per project and month (docs/scoring.md "Guard-model tier"). Part of the
 * PostgreSQL schema (drizzle-orm, src/db/schema/index.ts); migrations/ is generated from it by
 * `npm run db:generate`. Written only by src/db/judge-usage.ts.
 */
import { sql } from "drizzle-orm";
import { check, date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { projectId } from "./projects";

/**
 * How many guard-model calls a project reserved in one calendar month (UTC), against its
 * policy's `judge_monthly_budget`. A call is reserved before it is made (src/db/judge-usage.ts),
 * so a failed or timed-out call still counts.
 */
export const judgeUsage = pgTable(
  "judge_usage",
  {
    project_id: projectId(),
    /** First day of the calendar month (UTC). */
    month: date("month").notNull(),
    /** Guard-model calls reserved this month. */
    used: integer("used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.project_id, t.month] }), check("judge_usage_used_nonnegative", sql`${t.used} >= 0`)],
);
