/**
 * The `log-records` queue (docs/decisions.md D14) and its dead-letter queue `log-records-dlq`:
 * what the capture proxy hands over for each call it served (workers/proxy/src/deliver.ts), and
 * what the API worker's ingest consumer (workers/api/src/log-records/consume.ts) stores.
 *
 * A message carries the record id the proxy chose (UUIDv7, stored as `llm_requests.id`, so a
 * redelivery finds its row), the SHA-256 hex of the project key (the key itself never enters
 * the queue) and either the record inline or the key of an R2 object holding it.
 *
 * Cloudflare Queues caps a message at 128 KB, with 1 KB = 1000 bytes and up to ~100 bytes of
 * internal metadata counted in (https://developers.cloudflare.com/queues/platform/limits/):
 * a serialised message above INLINE_MAX_BYTES (120,000 bytes, 8 KB of headroom) sends its
 * record through R2 instead.
 */
import { z } from "zod";
import type { Backoff } from "./backoff";
import { LOWERCASE_UUID_PATTERN } from "../util";

/** Name of the queue (workers/proxy/wrangler.jsonc producer `LOG_QUEUE`; wrangler.jsonc consumer). */
export const LOG_RECORDS_QUEUE = "log-records";

/**
 * Its dead-letter queue (wrangler.jsonc `dead_letter_queue`, and producer `LOG_DEAD_LETTERS`
 * for records that can never be stored).
 */
export const LOG_RECORDS_DLQ = "log-records-dlq";

/**
 * Retry schedule of the consumer: 10 s, doubled per attempt, at most 3 h. After an outage the next
 * delivery comes at most about one outage length later (the delay doubles while the database
 * stays down). With `max_retries = 100` (the Queues maximum) the delays add up to about 11.4 days
 * (10 s .. 2 h 51 min, then 89 x 3 h), inside the 14-day message retention the queue is created
 * with, so a database outage of up to 11 days delays logging without losing it.
 */
export const LOG_RECORDS_RETRY: Backoff = { firstSeconds: 10, factor: 2, capSeconds: 3 * 3600 };

/** Largest serialised message (UTF-8 bytes) sent inline; larger records go through R2. */
export const INLINE_MAX_BYTES = 120_000;

/** Version of the message layout; a consumer drops versions it does not know. */
export const MESSAGE_VERSION = 1;

/** The envelope of a `log-records` message; exactly one of `record` and `payload` is set. */
export const LogRecordMessageSchema = z
  .object({
    v: z.literal(MESSAGE_VERSION),
    /** UUIDv7 chosen by the proxy: the stored request's id. */
    record_id: z.string().regex(LOWERCASE_UUID_PATTERN),
    /** SHA-256 hex of the Sightline key the call was made with. */
    key_hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** The POST /internal/log record (LogRequest), when it fits in the message. */
    record: z.record(z.string(), z.unknown()).optional(),
    /** Key of the R2 object (LOG_PAYLOADS) holding the record's JSON, when it did not fit. */
    payload: z.string().min(1).max(256).optional(),
  })
  .refine((m) => (m.record === undefined) !== (m.payload === undefined), "exactly one of record and payload");

/** A parsed `log-records` message. */
export type LogRecordMessage = z.infer<typeof LogRecordMessageSchema>;

/** R2 object key of a record too large for the queue: `records/<record_id>.json`. */
export const payloadKey = (recordId: string) => `records/${recordId}.json`;

const encoder = new TextEncoder();

/**
 * Serialises a message around an already serialised record (`recordJson`, a JSON object) without
 * parsing it again; returns the text and its size in UTF-8 bytes.
 */
function inlineMessage(recordId: string, keyHash: string, recordJson: string): { text: string; bytes: number } {
  const text = `{"v":${MESSAGE_VERSION},"record_id":"${recordId}","key_hash":"${keyHash}","record":${recordJson}}`;
  return { text, bytes: encoder.encode(text).byteLength };
}

/** Serialises a message whose record is in R2 under `payloadKey(recordId)`. */
function pointerMessage(recordId: string, keyHash: string): string {
  return JSON.stringify({ v: MESSAGE_VERSION, record_id: recordId, key_hash: keyHash, payload: payloadKey(recordId) });
}

/** Where `enqueueLogRecord` sends: the queue, and the R2 bucket for records too large for it (optional). */
export interface LogRecordSink {
  queue: Queue<unknown>;
  payloads?: R2Bucket | undefined;
}

/**
 * Enqueues one serialised record (`recordJson`, a LogRequest object) as record `recordId` of the
 * key whose SHA-256 hex is `keyHash`: inline when the message fits in INLINE_MAX_BYTES, otherwise
 * written to R2 first (`payloadKey`) and sent as a pointer. Returns which way it went; throws when
 * the queue or R2 refuses, or a large record has no bucket to go to.
 */
export async function enqueueLogRecord(sink: LogRecordSink, recordId: string, keyHash: string, recordJson: string): Promise<"inline" | "r2"> {
  const inline = inlineMessage(recordId, keyHash, recordJson);
  if (inline.bytes <= INLINE_MAX_BYTES) {
    await sink.queue.send(inline.text, { contentType: "text" });
    return "inline";
  }
  if (!sink.payloads) throw new Error(`record of ${inline.bytes} bytes needs the LOG_PAYLOADS R2 binding`);
  await sink.payloads.put(payloadKey(recordId), recordJson, { httpMetadata: { contentType: "application/json" } });
  await sink.queue.send(pointerMessage(recordId, keyHash), { contentType: "text" });
  return "r2";
}

/**
 * Parses a message body as sent by the proxy (`contentType: "text"`, a JSON string) or already
 * decoded (`"json"`). Returns undefined for anything that is not a valid envelope.
 */
export function parseLogRecordMessage(body: unknown): LogRecordMessage | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const parsed = LogRecordMessageSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}
