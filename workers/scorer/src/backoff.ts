/**
 * Retry delays of scoring jobs during an outage (issue 12, point 3): exponential, 5 s doubling
 * per delivery, capped. On scoring-jobs the cap is 60 s, so once the database is back a job
 * waits at most a minute for its next try; with `max_retries: 10` (wrangler.jsonc) a job rides
 * out 5+10+20+40+6x60 = 435 s (over 7 minutes) of outage before it is dead-lettered. On
 * scoring-jobs-dlq the cap is 300 s: 10 more deliveries spread over about 30 minutes. A job
 * dropped after those is still found by the sweep (src/sweep.ts), which re-enqueues every
 * request left unscored for 5 minutes.
 */
import { backoffSeconds } from "../../../src/backoff";

/** Queue of dead-lettered scoring jobs (wrangler.jsonc `dead_letter_queue`). */
export const DEAD_LETTER_QUEUE = "scoring-jobs-dlq";

/** First retry delay, seconds. */
export const RETRY_BASE_SECONDS = 5;

/** Largest retry delay on scoring-jobs, seconds. */
export const RETRY_MAX_SECONDS = 60;

/** Largest retry delay on scoring-jobs-dlq, seconds. */
export const DLQ_RETRY_MAX_SECONDS = 300;

/**
 * Delay before the next delivery of a message delivered `attempts` times (1 on its first
 * delivery, Cloudflare Queues `Message.attempts`) from queue `queue`.
 */
export function retryDelaySeconds(attempts: number, queue: string): number {
  const capSeconds = queue === DEAD_LETTER_QUEUE ? DLQ_RETRY_MAX_SECONDS : RETRY_MAX_SECONDS;
  return backoffSeconds(attempts, { firstSeconds: RETRY_BASE_SECONDS, factor: 2, capSeconds });
}
