/**
 * Hands the record of a served call to the `log-records` queue (docs/decisions.md D14):
 * the ingest consumer stores it with the same key check and quota statement as
 * POST /internal/log, retrying through database and API outages for days, so an outage delays
 * logging instead of losing it.
 *
 * The message layout is the queue's room (src/queues/log-records.ts). Runs in `ctx.waitUntil`
 * after the client has its response, so nothing here adds to the response's time. A record that
 * fits a message joins the isolate's open batch (./record-batch.ts: records ending within
 * `LOG_BATCH_WINDOW_MS` share one message); a record over the queue's message limit is written
 * to R2 (`LOG_PAYLOADS`) first and travels alone, its message pointing to the object. The key
 * is sent as its SHA-256 hex only. A failure (queue or R2 unreachable) is reported as one JSON
 * line without key material and otherwise ignored: the application's call already succeeded.
 * Never throws.
 */
import { uuidv7 } from "uuidv7";
import { hashKey } from "../../../src/auth/keys";
import { enqueueViaR2, INLINE_MAX_BYTES, inlineRecord } from "../../../src/queues/log-records";
import type { ProxyConfig } from "./config";
import { batcherFor } from "./record-batch";
import { logError } from "../../../src/logger";

/** Context printed with a failure (never a key or a body). */
export interface RecordContext {
  model: string;
  endpoint: string;
}

/** What happened to a record: queued inline, queued through R2, or not queued. */
export type EnqueueOutcome = { queued: "inline" | "r2"; recordId: string } | { queued: false };

/**
 * Queues one serialised record (`json`, a LogRequest object) for the project of `key`.
 * Returns how it was queued; failures are logged, not thrown.
 */
export async function enqueueRecord(sink: ProxyConfig["logRecords"], key: string, json: string, context: RecordContext): Promise<EnqueueOutcome> {
  const recordId = uuidv7();
  try {
    if (!sink.queue) throw new Error("the LOG_QUEUE binding (queue log-records) is not configured");
    const keyHash = await hashKey(key);
    const inline = inlineRecord(recordId, keyHash, json);
    if (inline.bytes <= INLINE_MAX_BYTES) {
      await batcherFor(sink.queue).add(inline, sink.batchWindowMs);
      return { queued: "inline", recordId };
    }
    await enqueueViaR2({ queue: sink.queue, payloads: sink.payloads }, recordId, keyHash, json, inline.bytes);
    return { queued: "r2", recordId };
  } catch (err) {
    logError("log record could not be queued", { record_id: recordId, ...context }, err);
    return { queued: false };
  }
}
