/**
 * Retry schedule of alert deliveries: exponential, the first retry after `base` seconds
 * (default 10), each next one 4 times later, capped at 6 hours (Cloudflare Queues accepts delays
 * up to 12 hours, https://developers.cloudflare.com/queues/configuration/batching-retries/).
 * With the defaults (11 attempts) the retries wait 10 s, 40 s, 160 s, 640 s, 2560 s, 10240 s,
 * then 6 h four times: the last attempt comes about 27.8 h after the first, so an endpoint that
 * is down for up to 24 hours still gets the event. Shaped like Svix's schedule for Standard
 * Webhooks (seconds, minutes, then hours apart).
 */
import { backoffSeconds } from "../backoff";

/** Largest delay between two attempts, seconds (6 h). */
export const RETRY_CAP_SECONDS = 6 * 60 * 60;

/** Growth of the delay from one retry to the next. */
const RETRY_FACTOR = 4;

/** Seconds to wait after failed attempt number `attempt` (1-based) before the next one. */
export function retryDelaySeconds(attempt: number, baseSeconds: number): number {
  return backoffSeconds(attempt, { firstSeconds: baseSeconds, factor: RETRY_FACTOR, capSeconds: RETRY_CAP_SECONDS });
}

/** Seconds from the first attempt to the last one when every attempt fails (the retry window). */
export function retryWindowSeconds(maxAttempts: number, baseSeconds: number): number {
  let total = 0;
  for (let a = 1; a < maxAttempts; a++) total += retryDelaySeconds(a, baseSeconds);
  return total;
}
