/**
 * Exponential retry delays, written once for the three queues that back off: the log-records
 * consumer (src/log-records/consume.ts), alert deliveries (src/alerts/retry.ts) and scoring jobs
 * (workers/scorer/src/backoff.ts). Each keeps its own schedule; this module only computes it.
 */

/** An exponential schedule: `firstSeconds` after the first failure, `factor` times longer after each next one, never over `capSeconds`. */
export interface Backoff {
  firstSeconds: number;
  factor: number;
  capSeconds: number;
}

/**
 * Seconds to wait after failed attempt number `attempt` (1-based, as Cloudflare Queues'
 * `Message.attempts`): `firstSeconds * factor^(attempt - 1)`, at most `capSeconds`. A fraction
 * counts as its whole part and anything below 1 or not finite as 1; the exponent stops at 20,
 * so a huge attempt count never overflows to Infinity before the cap applies.
 */
export function backoffSeconds(attempt: number, schedule: Backoff): number {
  const n = Number.isFinite(attempt) ? Math.max(1, Math.floor(attempt)) : 1;
  return Math.min(schedule.capSeconds, schedule.firstSeconds * schedule.factor ** Math.min(n - 1, 20));
}
