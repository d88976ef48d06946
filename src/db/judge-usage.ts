/**
 * The guard-model tier's monthly budget (table `judge_usage`, docs/scoring.md "Guard-model
 * tier"): one call is reserved atomically before it is made, so concurrent batches of the
 * scorer worker never make more calls in a month than the project's `judge_monthly_budget`.
 */
import { sql } from "drizzle-orm";
import type { Db } from "./driver/client";

/** First day of the calendar month (UTC) of `now`, as `YYYY-MM-01`. */
export function usageMonth(now: Date): string {
  return `${now.toISOString().slice(0, 7)}-01`;
}

/**
 * Reserves one guard-model call of `projectId`'s budget for the month of `now` (UTC): true when
 * granted, false when `budget` calls are already reserved this month (or `budget` is 0). One
 * statement: the upsert's conflict update takes the row lock and re-checks `used < budget`, so
 * concurrent reservations never pass the budget. Throws when the database fails.
 */
export async function reserveJudgeCall(db: Db, projectId: string, budget: number, now = new Date()): Promise<boolean> {
  if (budget <= 0) return false;
  const result = (await db.execute(sql`
    INSERT INTO judge_usage AS u (project_id, month, used) VALUES (${projectId}::uuid, ${usageMonth(now)}::date, 1)
    ON CONFLICT (project_id, month) DO UPDATE SET used = u.used + 1 WHERE u.used < ${budget}
    RETURNING u.used`)) as unknown as { rows: { used: number }[] };
  return result.rows.length > 0;
}

/** Guard-model calls `projectId` reserved in the month of `now` (UTC); 0 when none. */
export async function judgeCallsUsed(db: Db, projectId: string, now = new Date()): Promise<number> {
  const result = (await db.execute(
    sql`SELECT used FROM judge_usage WHERE project_id = ${projectId}::uuid AND month = ${usageMonth(now)}::date`,
  )) as unknown as { rows: { used: number }[] };
  return result.rows[0]?.used ?? 0;
}
