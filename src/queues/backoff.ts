/**
 * Exponential retry delays, written once for every queue that backs off. Each queue's room
 * (src/queues/<queue>.ts) declares its schedule as a `Backoff`; consumers call
 * `backoffSeconds(message.attempts, <QUEUE>_RETRY)`.
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

/**
 * Seconds from the first attempt to the last when all `attempts` attempts fail: the sum of the
 * delays after attempts 1 .. attempts - 1 (the retry window of a schedule).
 */
export function backoffWindowSeconds(attempts: number, schedule: Backoff): number {
  let total = 0;
  for (let a = 1; a < attempts; a++) total += backoffSeconds(a, schedule);
  return total;
}
