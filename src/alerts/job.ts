/**
 * The alert-deliveries queue's message: the delivery row's id only (the row holds everything
 * else, src/db/schema/alerts.ts). Produced by the scorer once the statement that stored the scores
 * created the deliveries; consumed by workers/scorer/src/deliver.ts.
 */
import { isUuid } from "../util";

/** Message of the alert-deliveries queue. */
export interface AlertJob {
  delivery_id: string;
}

/** True for a well-formed alert job. */
export const isAlertJob = (body: unknown): body is AlertJob => isUuid((body as Partial<AlertJob> | null)?.delivery_id);

/** Messages per `sendBatch` call (the Queues limit). */
const SEND_BATCH = 100;

/** Enqueues one job per delivery id, in batches of 100. Throws when the queue refuses. */
export async function enqueueDeliveries(queue: Queue<AlertJob>, ids: readonly string[]): Promise<void> {
  for (let i = 0; i < ids.length; i += SEND_BATCH) {
    await queue.sendBatch(ids.slice(i, i + SEND_BATCH).map((delivery_id) => ({ body: { delivery_id }, contentType: "json" as const })));
  }
}
