/**
 * Chunked queue sends, shared by the rooms of src/queues/ (each queue's enqueue helper).
 */

/** Most messages one `Queue.sendBatch` takes (Cloudflare Queues limits: 100 messages per batch). */
export const SEND_BATCH_LIMIT = 100;

/**
 * Sends `bodies` as JSON messages in batches of `SEND_BATCH_LIMIT`. Without `failed`, the first
 * batch the queue refuses throws (the batches before it stay sent); with it, `failed(batch, err)`
 * is awaited for each refused batch and the rest are still sent. Returns how many were sent.
 */
export async function sendInBatches<T>(
  queue: Pick<Queue<NoInfer<T>>, "sendBatch">,
  bodies: readonly T[],
  failed?: (batch: readonly T[], err: unknown) => Promise<void>,
): Promise<number> {
  let sent = 0;
  for (let i = 0; i < bodies.length; i += SEND_BATCH_LIMIT) {
    const batch = bodies.slice(i, i + SEND_BATCH_LIMIT);
    try {
      await queue.sendBatch(batch.map((body) => ({ body, contentType: "json" as const })));
      sent += batch.length;
    } catch (err) {
      if (!failed) throw err;
      await failed(batch, err);
    }
  }
  return sent;
}
