/**
 * The alert-deliveries queue's message: the delivery row's id only (the row holds everything
 * else, src/db/schema/alerts.ts). Produced by the scorer once the statement that stored the scores
 * created the deliveries; consumed by workers/scorer/src/deliver.ts.
 */
import { sendInBatches } from "../queue";
import { isUuid } from "../util";

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
