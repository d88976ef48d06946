/**
 * The `log-records` consumer (docs/decisions.md D14), run by the API worker: stores the
 * records the capture proxy queued, with the same key check and quota as POST /internal/log,
 * in one statement per batch (src/db/ingest-batch.ts), then enqueues the batch's rows for scoring
 * in one scoring-jobs message (src/queues/scoring-jobs.ts).
 *
 * What happens to each message:
 * - stored: acked; its id enqueued for scoring (one `{request_ids}` message for the batch).
 * - already stored (a redelivery, e.g. after a crash between the statement and the ack):
 *   acked, counted once, and its scoring job enqueued again (the scorer acks a job whose
 *   request is already scored without scoring it twice).
 * - unknown, revoked or expired key, or one without the `ingest` scope: acked and dropped,
 *   reported without key material.
 * - over the project's monthly limit: acked and dropped, counted per project in one report
 *   line (the queue-path equivalent of a 429; retrying cannot succeed before the period ends).
 * - malformed envelope, or its R2 object gone: acked and dropped, reported (nothing to keep).
 *   NUL and lone surrogates become U+FFFD (src/ingest/input.ts).
 * - a record that cannot be stored: nesting deeper than MAX_JSON_DEPTH, failing the ingest
 *   contract, or refused by the database itself (SQLSTATE class 22, 23, 42 or 54): its message
 *   is sent unchanged to the dead-letter queue `log-records-dlq` (`LOG_DEAD_LETTERS`) and then
 *   acked, its R2 object kept, and the reason reported with the record id. Only a send that
 *   succeeded acks: if the dead-letter queue cannot take it, the message is retried and reaches
 *   the same queue through `max_retries`. So no proxied call is dropped for its data unseen.
 * - database unreachable (or any error that is not about the data): the messages are retried
 *   with exponential backoff (`LOG_RECORDS_RETRY`, src/queues/log-records.ts); after `max_retries` (wrangler.jsonc) they go
 *   to the dead-letter queue `log-records-dlq`.
 * - the statement refuses the data itself: the batch is stored record by record, so only that
 *   record is dead-lettered.
 * - scoring jobs cannot be enqueued: the stored messages are retried; the redelivery finds the
 *   rows (no second count) and enqueues their jobs.
 * Records held in R2 are deleted once their message is acked, except dead-lettered ones (kept
 * for a replay; the bucket's lifecycle rule removes them eventually).
 */
import { recordKeyUse } from "../../../../src/db/key-usage";
import { backoffSeconds } from "../../../../src/queues/backoff";
import type { Db } from "../../../../src/db/driver/client";
import { withDb } from "../../../../src/db/driver/with-db";
import { isDataError } from "../../../../src/db/driver/unavailable";
import { ingestBatch, type BatchEntry, type BatchResult } from "../../../../src/db/ingest-batch";
import { type ApiConfig, apiConfig } from "../../../../src/config/api";
import { configOrRetry } from "../../../../src/config/parse";
import type { AppEnv } from "../env";
import { enqueueScoringJobs } from "../../../../src/queues/scoring-jobs";
import type { RequestRef } from "../../../../src/db/request-time";
import { storableJson, TooDeepError } from "../../../../src/ingest/input";
import { LogRequestSchema } from "../../../../src/ingest/contract";
import { LOG_RECORDS_RETRY, parseLogRecordMessage } from "../../../../src/queues/log-records";
import { messageParts } from "./parts";
import { logWarn, type LogFields } from "../../../../src/logger";

/** Delay before the next delivery of `message` (LOG_RECORDS_RETRY). */
const retryIn = (message: Message<unknown>) => ({ delaySeconds: backoffSeconds(message.attempts, LOG_RECORDS_RETRY) });

/**
 * Sends `message` unchanged to the dead-letter queue `log-records-dlq` (where messages that
 * exhaust their retries also land, so one replay path serves both) and acks it, leaving its R2
 * object in place; `reason` and `fields` go to the log. When the send fails the message is
 * retried instead, never acked.
 */
async function deadLetter(config: ApiConfig, message: Message<unknown>, reason: string, fields: LogFields, err?: unknown): Promise<void> {
  try {
    await config.logDeadLetters.send(message.body, { contentType: typeof message.body === "string" ? "text" : "json" });
  } catch (sendErr) {
    logWarn(`${reason}; dead-letter queue unavailable, will retry`, fields, sendErr);
    return message.retry(retryIn(message));
  }
  logWarn(`${reason}; sent to log-records-dlq`, fields, err);
  message.ack();
}

/** A message read and validated, with the R2 object it came from (if any). */
interface Pending extends BatchEntry {
  message: Message<unknown>;
  payload?: string;
}

/**
 * Reads the records of each message (from R2 when it points there; several from a `v: 2` message,
 * each settled through its part, ./parts.ts); acks what carries nothing to keep and
 * dead-letters records that can never be stored.
 */
async function readMessages(batch: MessageBatch<unknown>, config: ApiConfig, done: (m: Message<unknown>, payload?: string) => void) {
  const pending: Pending[] = [];
  const parts = batch.messages.flatMap((message) => {
    const envelopes = parseLogRecordMessage(message.body);
    if (!envelopes) {
      logWarn("malformed log-records message dropped", { message_id: message.id });
      done(message);
      return [];
    }
    return messageParts(message, envelopes).map((part, i) => ({ message: part, envelope: envelopes[i]! }));
  });
  await Promise.all(
    parts.map(async ({ message, envelope }) => {
      let raw: unknown = envelope.record;
      if (envelope.payload) {
        try {
          const object = await config.logPayloads.get(envelope.payload);
          if (!object) {
            logWarn("log record payload missing in R2; dropped", { record_id: envelope.record_id, payload: envelope.payload });
            return done(message);
          }
          raw = await object.json();
        } catch (err) {
          logWarn("log record payload unreadable; will retry", { record_id: envelope.record_id }, err);
          return message.retry(retryIn(message));
        }
      }
      // The one rule for text PostgreSQL cannot store (src/ingest/input.ts), as on POST /internal/log:
      // NUL and lone surrogates become U+FFFD (counted in metadata.text_replaced); nesting
      // deeper than MAX_JSON_DEPTH is refused (dead-lettered here, 422 there).
      let storable: ReturnType<typeof storableJson>;
      try {
        storable = storableJson(raw);
      } catch (err) {
        if (!(err instanceof TooDeepError)) throw err;
        return deadLetter(config, message, "log record nested too deeply", { record_id: envelope.record_id, path: err.path });
      }
      const record = LogRequestSchema.safeParse(storable.value);
      if (!record.success) {
        const fields = [...new Set(record.error.issues.map((i: { path: PropertyKey[] }) => i.path.join(".")))];
        return deadLetter(config, message, "invalid log record", { record_id: envelope.record_id, fields: fields.join(",") });
      }
      const { created_at, ...fields } = record.data;
      if (storable.replaced > 0) fields.metadata = { ...fields.metadata, text_replaced: storable.replaced };
      pending.push({
        message,
        payload: envelope.payload,
        id: envelope.record_id,
        keyHash: envelope.key_hash,
        record: { ...fields, created_at: created_at ? new Date(created_at) : undefined },
      });
    }),
  );
  return pending;
}

/** A batch result, or `refused`: the database cannot store this record (dead-lettered). */
type Stored = BatchResult | { id: string; projectId: null; outcome: "refused"; error: unknown };

/**
 * Stores `pending` in one statement; when the database refuses the data itself, record by
 * record so that one bad record does not hold back the rest. Returns the results of the
 * records it could decide on; the others are retried.
 */
async function store(db: Db, pending: Pending[], config: ApiConfig): Promise<Map<Pending, Stored>> {
  const limits = config.tierLimits;
  const results = new Map<Pending, Stored>();
  const retry = (items: Pending[], err: unknown) => {
    logWarn("storing log records failed; will retry", { records: items.length }, err);
    for (const p of items) p.message.retry(retryIn(p.message));
  };
  try {
    const rows = await ingestBatch(db, pending, limits, config.bodies);
    for (const [i, p] of pending.entries()) results.set(p, rows[i]!);
    return results;
  } catch (err) {
    if (!isDataError(err)) {
      retry(pending, err);
      return results;
    }
  }
  for (const p of pending) {
    try {
      const [row] = await ingestBatch(db, [p], limits, config.bodies);
      results.set(p, row!);
    } catch (err) {
      if (!isDataError(err)) {
        retry([p], err);
        continue;
      }
      results.set(p, { id: p.id, projectId: null, outcome: "refused", error: err });
    }
  }
  return results;
}

/**
 * Stores `pending`, records key use, enqueues the scoring jobs and then settles every message:
 * acked (`done`), dead-lettered, or retried when its scoring job could not be enqueued.
 */
async function settle(db: Db, pending: Pending[], config: ApiConfig, done: (message: Message<unknown>, payload?: string) => void): Promise<void> {
  const results = await store(db, pending, config);
  // last_used_at of the keys behind stored records, at most once a minute per key (src/db/key-usage.ts).
  const usedKeys = new Set([...results].flatMap(([p, r]) => (r.outcome === "stored" ? [p.keyHash] : [])));
  for (const keyHash of usedKeys) await recordKeyUse(db, keyHash);
  const jobs: RequestRef[] = [];
  const overQuota = new Map<string, number>();
  let unknownKeys = 0;
  for (const r of results.values()) {
    if ((r.outcome === "stored" || r.outcome === "duplicate") && r.projectId) jobs.push(r);
    else if (r.outcome === "quota" && r.projectId) overQuota.set(r.projectId, (overQuota.get(r.projectId) ?? 0) + 1);
    else if (r.outcome === "key") unknownKeys++;
  }
  let enqueued = true;
  if (jobs.length > 0) {
    try {
      await enqueueScoringJobs(config.scoringQueue, jobs);
    } catch (err) {
      enqueued = false;
      logWarn("scoring jobs could not be enqueued; stored records will be redelivered", { jobs: jobs.length }, err);
    }
  }
  for (const [p, result] of results) {
    if (result.outcome === "refused") await deadLetter(config, p.message, "log record refused by the database", { record_id: p.id }, result.error);
    else if (!enqueued && (result.outcome === "stored" || result.outcome === "duplicate")) p.message.retry(retryIn(p.message));
    else done(p.message, p.payload);
  }
  for (const [project_id, count] of overQuota) logWarn("log records over the monthly limit dropped", { project_id, count });
  if (unknownKeys > 0) logWarn("log records with an unknown, revoked or expired key, or one without the ingest scope, dropped", { count: unknownKeys });
}

/** Handles one batch of `log-records`; see the module doc. Never throws. */
export async function consumeLogRecords(batch: MessageBatch<unknown>, env: AppEnv, ctx: ExecutionContext): Promise<void> {
  const toDelete: string[] = [];
  const done = (message: Message<unknown>, payload?: string) => {
    message.ack();
    if (payload) toDelete.push(payload);
  };
  const config = configOrRetry(apiConfig, env, batch);
  if (!config) return;
  const pending = await readMessages(batch, config, done);
  if (pending.length > 0) await withDb(config.db, (db) => settle(db, pending, config, done), ctx);
  if (toDelete.length > 0) {
    // Deleting is tidying: a failure leaves an object the bucket's lifecycle rule removes.
    ctx.waitUntil(config.logPayloads.delete(toDelete).catch((err: unknown) => logWarn("R2 payload delete failed", { objects: toDelete.length }, err)));
  }
}
