/**
 * A `log-records` message that carries several records (`v: 2`, src/queues/log-records.ts)
 * settles as one: the consumer decides each record on its own (stored, dropped, dead-lettered,
 * retried), so each record gets a part that stands in for the message. The message is acked once
 * every part is acked, and retried (the whole message, with its own attempt count and backoff)
 * as soon as one part is retried: the redelivery finds the records already stored (same ids,
 * `duplicate`), so nothing is stored twice and nothing acked is lost.
 */
import type { LogRecordMessage } from "../../../../src/queues/log-records";

/**
 * One part per record of `message` (the message itself when it carries one). A part's `body` is
 * its record alone as a `v: 1` message, what the dead-letter queue receives for it; `id` is the
 * message id with `#<index>`.
 */
export function messageParts(message: Message<unknown>, records: readonly LogRecordMessage[]): Message<unknown>[] {
  if (records.length === 1) return [message];
  let waiting = records.length;
  let settled = false;
  const ack = () => {
    if (settled) return;
    waiting -= 1;
    if (waiting === 0) {
      settled = true;
      message.ack();
    }
  };
  const retry = (options?: QueueRetryOptions) => {
    if (settled) return;
    settled = true;
    message.retry(options);
  };
  return records.map((record, i) => {
    let partSettled = false;
    return {
      id: `${message.id}#${i}`,
      timestamp: message.timestamp,
      attempts: message.attempts,
      body: JSON.stringify(record),
      ack() {
        if (partSettled) return;
        partSettled = true;
        ack();
      },
      retry(options?: QueueRetryOptions) {
        if (partSettled) return;
        partSettled = true;
        retry(options);
      },
    };
  });
}
