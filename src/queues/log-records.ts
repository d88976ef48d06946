/**
 * The `log-records` queue (docs/decisions.md D14) and its dead-letter queue `log-records-dlq`:
 * what the capture proxy hands over for each call it served (workers/proxy/src/deliver.ts), and
 * what the API worker's ingest consumer (workers/api/src/log-records/consume.ts) stores.
 *
 * A record travels with the record id the proxy chose (UUIDv7, stored as `llm_requests.id`, so a
 * redelivery finds its row), the SHA-256 hex of the project key (the key itself never enters
 * the queue) and either the record inline or the key of an R2 object holding it. A message is
 * one such record (`v: 1`), or several inline records that ended together in one proxy isolate
 * (`v: 2`, `{records: [...]}`, at most BATCH_MAX_RECORDS and INLINE_MAX_BYTES together): a
 * queue operation per batch instead of per call (issue 34.3; Queues bills each 64 KB written,
 * read and deleted as one operation and takes 5,000 messages/s per queue).
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

/** Version of the one-record message layout; a consumer drops versions it does not know. */
export const MESSAGE_VERSION = 1;

/** Version of the several-records layout (`{v: 2, records: [...]}`). */
export const BATCH_MESSAGE_VERSION = 2;

/** Most records in one `v: 2` message (the consumer's batch holds at most 100 messages). */
export const BATCH_MAX_RECORDS = 100;

/** The envelope of a one-record `log-records` message; exactly one of `record` and `payload` is set. */
const recordId = z.string().regex(LOWERCASE_UUID_PATTERN);
const keyHash = z.string().regex(/^[0-9a-f]{64}$/);

export const LogRecordMessageSchema = z
  .object({
    v: z.literal(MESSAGE_VERSION),
    /** UUIDv7 chosen by the proxy: the stored request's id. */
    record_id: recordId,
    /** SHA-256 hex of the Sightline key the call was made with. */
    key_hash: keyHash,
    /** The POST /internal/log record (LogRequest), when it fits in the message. */
    record: z.record(z.string(), z.unknown()).optional(),
    /** Key of the R2 object (LOG_PAYLOADS) holding the record's JSON, when it did not fit. */
    payload: z.string().min(1).max(256).optional(),
  })
  .refine((m) => (m.record === undefined) !== (m.payload === undefined), "exactly one of record and payload");

/** A parsed one-record `log-records` message (also what `v: 2` messages unpack into). */
export type LogRecordMessage = z.infer<typeof LogRecordMessageSchema>;

/** A `v: 2` message: inline records only (a record in R2 always travels alone). */
const BatchMessageSchema = z.object({
  v: z.literal(BATCH_MESSAGE_VERSION),
  records: z
    .array(z.object({ record_id: recordId, key_hash: keyHash, record: z.record(z.string(), z.unknown()) }))
    .min(1)
    .max(BATCH_MAX_RECORDS),
});

/** R2 object key of a record too large for the queue: `records/<record_id>.json`. */
export const payloadKey = (recordId: string) => `records/${recordId}.json`;

const encoder = new TextEncoder();

/**
 * One inline record, serialised around its already serialised JSON (`recordJson`, a LogRequest
 * object) without parsing it again: the text of its `v: 1` message, and the entry it would be
 * in a `v: 2` message (`entry`, `entryBytes` in UTF-8 bytes).
 */
export interface InlineRecord {
  recordId: string;
  /** The `v: 1` message alone. */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** `{"record_id":…,"key_hash":…,"record":…}`, an element of a `v: 2` message's `records`. */
  entry: string;
  /** UTF-8 bytes of `entry`. */
  entryBytes: number;
}

/** Serialises record `recordId` of the key whose SHA-256 hex is `keyHash` (see InlineRecord). */
export function inlineRecord(recordId: string, keyHash: string, recordJson: string): InlineRecord {
  const entry = `{"record_id":"${recordId}","key_hash":"${keyHash}","record":${recordJson}}`;
  const text = `{"v":${MESSAGE_VERSION},${entry.slice(1)}`;
  const bytes = encoder.encode(text).byteLength;
  // The prefix `{"v":1,` is ASCII: one byte per code unit.
  return { recordId, text, bytes, entry, entryBytes: bytes - (text.length - entry.length) };
}

/** UTF-8 bytes a `v: 2` message adds around its entries (the envelope and the commas between them). */
export const batchOverheadBytes = (entries: number) => `{"v":${BATCH_MESSAGE_VERSION},"records":[]}`.length + Math.max(0, entries - 1);

/** The message carrying `records` together: the `v: 1` text for one, a `v: 2` message for more. */
export function batchMessage(records: readonly InlineRecord[]): string {
  if (records.length === 1) return records[0]!.text;
  return `{"v":${BATCH_MESSAGE_VERSION},"records":[${records.map((r) => r.entry).join(",")}]}`;
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
 * Writes a record too large for a message (`recordJson`, over INLINE_MAX_BYTES once wrapped) to
 * R2 (`payloadKey`) and sends a `v: 1` message pointing to it. Throws when R2 or the queue
 * refuses, or there is no bucket.
 */
export async function enqueueViaR2(sink: LogRecordSink, recordId: string, keyHash: string, recordJson: string, bytes: number): Promise<void> {
  if (!sink.payloads) throw new Error(`record of ${bytes} bytes needs the LOG_PAYLOADS R2 binding`);
  await sink.payloads.put(payloadKey(recordId), recordJson, { httpMetadata: { contentType: "application/json" } });
  await sink.queue.send(pointerMessage(recordId, keyHash), { contentType: "text" });
}

/**
 * Parses a message body as sent by the proxy (`contentType: "text"`, a JSON string) or already
 * decoded (`"json"`) into its records, each as a one-record envelope (a `v: 2` message gives
 * several). Returns undefined for anything that is not a valid message.
 */
export function parseLogRecordMessage(body: unknown): LogRecordMessage[] | undefined {
  let value = body;
  if (typeof body === "string") {
    try {
      value = JSON.parse(body);
    } catch {
      return undefined;
    }
  }
  const batch = BatchMessageSchema.safeParse(value);
  if (batch.success) return batch.data.records.map((r) => ({ v: MESSAGE_VERSION, ...r }));
  const parsed = LogRecordMessageSchema.safeParse(value);
  return parsed.success ? [parsed.data] : undefined;
}
