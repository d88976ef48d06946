/**
 * The `alert-deliveries` queue (docs/webhooks.md). Each message names one delivery row by id (the
 * row holds everything else, src/db/schema/alerts.ts). Produced by the scorer once the statement
 * that stored the scores created the deliveries, and by the alert sweep; consumed by
 * workers/scorer/src/deliver.ts.
 *
 * Retry schedule of a delivery: exponential, the first retry after `firstSeconds` (default 10,
 * `WEBHOOK_RETRY_BASE_SECONDS` overrides it), each next one 4 times later, capped at 6 hours
 * (Cloudflare Queues accepts delays up to 12 hours,
 * https://developers.cloudflare.com/queues/configuration/batching-retries/). With the defaults
 * (11 attempts) the retries wait 10 s, 40 s, 160 s, 640 s, 2560 s, 10240 s, then 6 h four times:
 * the last attempt comes about 27.8 h after the first, so an endpoint that is down for up to 24
 * hours still gets the event. Shaped like Svix's schedule for Standard Webhooks (seconds,
 * minutes, then hours apart).
 */
import type { Backoff } from "./backoff";
import { sendInBatches } from "./send";
import { isUuid } from "../util";

/** Name of the queue (workers/scorer/wrangler.jsonc: producer `ALERT_QUEUE` and consumer). */
export const ALERT_DELIVERIES_QUEUE = "alert-deliveries";

/** Retry schedule of an alert delivery; `firstSeconds` is the default of `WEBHOOK_RETRY_BASE_SECONDS`. */
export const ALERT_DELIVERIES_RETRY: Backoff = { firstSeconds: 10, factor: 4, capSeconds: 6 * 60 * 60 };

/** Message of the alert-deliveries queue. */
export interface AlertJob {
  delivery_id: string;
}

/** True for a well-formed alert job. */
export const isAlertJob = (body: unknown): body is AlertJob => isUuid((body as Partial<AlertJob> | null)?.delivery_id);

/** Enqueues one job per delivery id, in batches of 100 (`sendInBatches`). Throws when the queue refuses. */
export async function enqueueDeliveries(queue: Queue<AlertJob>, ids: readonly string[]): Promise<void> {
  await sendInBatches(
    queue,
    ids.map((delivery_id) => ({ delivery_id })),
  );
}
