/**
 * Billing periods. A project without a paid subscription counts requests per calendar month
 * in UTC; a paid subscription follows the provider's billing period (set by `invoice.paid`).
 * The reset itself happens inside the ingest statement (see `src/db/ingest.ts`).
 */
import { sql, type SQL } from "drizzle-orm";

/** The calendar month (UTC) containing `now`: `[start, reset)`. */
export function calendarPeriod(now: Date): { start: Date; reset: Date } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const reset = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { start, reset };
}

/**
 * SQL for the next `period_reset_at` of a subscription row `s` whose period has passed:
 * - no paid subscription: the first instant of next calendar month, UTC;
 * - paid: the old reset moved forward by whole months until it is in the future (a stand-in
 *   until the provider's `invoice.paid` sets the real period end).
 */
export const nextPeriodResetSql: SQL = sql.raw(`CASE
    WHEN s.payment_subscription_id IS NULL
      THEN (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC'
    ELSE s.period_reset_at + make_interval(months =>
      (extract(year FROM age(now(), s.period_reset_at)) * 12 + extract(month FROM age(now(), s.period_reset_at)))::int + 1)
  END`);
