/**
 * Records of calls that end close together in one isolate share one `log-records` message
 * (`v: 2`, src/queues/log-records.ts; issue 34.3). A Workers isolate serves many requests at
 * once, so at peak rates several calls end within a few milliseconds of each other: the first
 * record opens a batch and the batch is sent `windowMs` later, or at once when the next record
 * would take it past BATCH_MAX_RECORDS records or INLINE_MAX_BYTES. Each caller waits for the send
 * of its own batch inside its request's `ctx.waitUntil` (the client already has its response), so
 * every request stays alive until its record is queued, and a refused send reaches every caller
 * of that batch as the error, exactly as a refused single send did.
 *
 * Latency cost: none for the application; a record reaches the queue up to `windowMs` later.
 * `windowMs` 0 sends each record alone (as before batching).
 */
import { BATCH_MAX_RECORDS, INLINE_MAX_BYTES, batchMessage, batchOverheadBytes, type InlineRecord } from "../../../src/queues/log-records";

/** Default batching window of the proxy, in milliseconds (`LOG_BATCH_WINDOW_MS`). */
export const DEFAULT_LOG_BATCH_WINDOW_MS = 50;

interface OpenBatch {
  records: InlineRecord[];
  /** UTF-8 bytes of the entries so far (without the envelope). */
  bytes: number;
  sent: Promise<void>;
  send: () => void;
}

/** Batches records for one queue; one per queue binding and isolate (`batcherFor`). */
export class RecordBatcher {
  private open: OpenBatch | undefined;

  constructor(private readonly queue: Pick<Queue<unknown>, "send">) {}

  /**
   * Queues `record` (which fits a message alone: `record.bytes <= INLINE_MAX_BYTES`) in the open
   * batch, or a new one that is sent `windowMs` later. Resolves when the message holding it is
   * accepted by the queue; rejects with the queue's error otherwise. `windowMs` 0 sends it alone.
   */
  add(record: InlineRecord, windowMs: number): Promise<void> {
    if (windowMs <= 0) return this.queue.send(record.text, { contentType: "text" }).then(() => undefined);
    const { entryBytes } = record;
    const open = this.open;
    if (open && (open.records.length >= BATCH_MAX_RECORDS || open.bytes + entryBytes + batchOverheadBytes(open.records.length + 1) > INLINE_MAX_BYTES)) {
      open.send();
    }
    const batch = this.open ?? this.start(windowMs);
    batch.records.push(record);
    batch.bytes += entryBytes;
    return batch.sent;
  }

  /** Opens a batch that sends itself after `windowMs` (or earlier through `send`). */
  private start(windowMs: number): OpenBatch {
    let send!: () => void;
    const sent = new Promise<void>((resolve, reject) => {
      let started = false;
      const timer = setTimeout(() => send(), windowMs);
      send = () => {
        if (started) return;
        started = true;
        clearTimeout(timer);
        if (this.open === batch) this.open = undefined;
        this.queue.send(batchMessage(batch.records), { contentType: "text" }).then(() => resolve(), reject);
      };
    });
    const batch: OpenBatch = { records: [], bytes: 0, sent, send };
    this.open = batch;
    return batch;
  }
}

const batchers = new WeakMap<object, RecordBatcher>();

/** The isolate's batcher of `queue` (bindings live as long as the isolate). */
export function batcherFor(queue: Queue<unknown>): RecordBatcher {
  let b = batchers.get(queue);
  if (!b) {
    b = new RecordBatcher(queue);
    batchers.set(queue, b);
  }
  return b;
}
