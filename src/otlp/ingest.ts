/**
 * Stores the LLM calls of one OTLP export on the durable path of the proxy's records: the batch
 * ingest statement (src/db/ingest-batch.ts: key check, quota, one insert, ids already stored
 * skipped), then the stored calls on `scoring-jobs` (one message per 100 calls), as POST /internal/log does.
 * Each call's id is derived from its span (./record-id.ts), so a retried export stores nothing
 * twice and counts nothing twice against the quota (docs/decisions.md D18).
 */
import type { ApiConfig } from "../config/api";
import type { Db } from "../db/driver/client";
import { isDataError } from "../db/driver/unavailable";
import { ingestBatch, type BatchEntry, type BatchResult } from "../db/ingest-batch";
import { markNotEnqueued } from "../db/request-scoring";
import type { RequestRef } from "../db/request-time";
import { recordKeyUse } from "../db/key-usage";
import { LogRequestSchema } from "../ingest/contract";
import { storableJson, TooDeepError } from "../ingest/input";
import { logError } from "../logger";
import { enqueueScoringJobs } from "../queues/scoring-jobs";
import { redactSecrets } from "../auth/redact";
import { describeIssues } from "../http/validation";
import type { DecodedExport } from "./decode";
import { spanRecordId } from "./record-id";
import { logRequestOf, spanCall } from "./span-call";

/** Who sent the export: the key's project and hash, and the secrets to redact from what is stored. */
export interface OtlpCaller {
  projectId: string;
  keyHash: string;
  secrets: readonly string[];
}

/** What became of an export's spans. */
export interface OtlpIngestOutcome {
  /** Calls stored now. */
  stored: number;
  /** Calls already stored by an earlier delivery of the same spans. */
  duplicates: number;
  /** Spans that describe no LLM call (acknowledged, not stored). */
  dropped: number;
  /** Malformed spans (decoding, the ingest contract, or refused by the database). */
  rejected: number;
  /** Why the first rejected span was rejected. */
  firstError: string | null;
  /** Calls refused for the project's monthly limit (the route answers 429). */
  overQuota: number;
  /** Calls refused because the key stopped being valid between its check and the insert (the route answers 401). */
  keyRefused: number;
}

/** Stores the calls among `decoded.spans`; see the module doc. Throws what the driver throws for an outage. */
export async function ingestSpans(db: Db, config: ApiConfig, caller: OtlpCaller, decoded: DecodedExport): Promise<OtlpIngestOutcome> {
  const outcome: OtlpIngestOutcome = {
    stored: 0,
    duplicates: 0,
    dropped: 0,
    rejected: decoded.rejected,
    firstError: decoded.firstError,
    overQuota: 0,
    keyRefused: 0,
  };
  const reject = (why: string) => {
    outcome.rejected += 1;
    outcome.firstError ??= why;
  };
  const entries = new Map<string, BatchEntry>();
  for (const span of decoded.spans) {
    const call = spanCall(span);
    if (call === null) {
      outcome.dropped += 1;
      continue;
    }
    const record = recordOf(logRequestOf(span, call), caller.secrets);
    if (typeof record === "string") {
      reject(`span ${span.spanId}: ${record}`);
      continue;
    }
    const id = await spanRecordId(caller.projectId, span.traceId, span.spanId, record.created_at?.getTime());
    entries.set(id, { id, keyHash: caller.keyHash, record });
  }

  const results = await store(db, [...entries.values()], config, reject);
  const jobs: RequestRef[] = [];
  for (const r of results) {
    if (r.outcome === "stored") outcome.stored += 1;
    if (r.outcome === "duplicate") outcome.duplicates += 1;
    if (r.outcome === "quota") outcome.overQuota += 1;
    if (r.outcome === "key") outcome.keyRefused += 1;
    // A duplicate's job is sent again: its first delivery may have failed to enqueue (the scorer skips scored calls).
    if ((r.outcome === "stored" || r.outcome === "duplicate") && r.projectId) jobs.push(r);
  }
  if (outcome.stored > 0) await recordKeyUse(db, caller.keyHash);
  await enqueue(db, config, jobs);
  return outcome;
}

/**
 * The ingest contract's record for one call: text PostgreSQL cannot store replaced (src/ingest/input.ts),
 * the caller's secrets redacted (src/auth/redact.ts), validated by `LogRequestSchema`; or why it cannot be stored.
 */
function recordOf(body: unknown, secrets: readonly string[]): BatchEntry["record"] | string {
  let storable: ReturnType<typeof storableJson>;
  try {
    storable = storableJson(body);
  } catch (err) {
    if (err instanceof TooDeepError) return `nested too deeply at ${err.path}`;
    throw err;
  }
  const parsed = LogRequestSchema.safeParse(storable.value);
  if (!parsed.success) return describeIssues(parsed.error.issues);
  const { created_at, ...fields } = parsed.data;
  if (storable.replaced > 0) fields.metadata = { ...fields.metadata, text_replaced: storable.replaced };
  const redacted = redactSecrets({ request_body: fields.request_body, response_body: fields.response_body, metadata: fields.metadata }, secrets);
  return { ...fields, ...redacted, created_at: created_at ? new Date(created_at) : undefined };
}

/** One batch statement; when the database refuses the data itself, entry by entry, rejecting only the refused ones. */
async function store(db: Db, entries: BatchEntry[], config: ApiConfig, reject: (why: string) => void): Promise<BatchResult[]> {
  if (entries.length === 0) return [];
  try {
    return await ingestBatch(db, entries, config.tierLimits, config.bodies);
  } catch (err) {
    if (!isDataError(err)) throw err;
  }
  const results: BatchResult[] = [];
  for (const entry of entries) {
    try {
      results.push(...(await ingestBatch(db, [entry], config.tierLimits, config.bodies)));
    } catch (err) {
      if (!isDataError(err)) throw err;
      reject(`span call ${entry.id}: the database cannot store a value of it`);
    }
  }
  return results;
}

/** Sends the scoring jobs; jobs that cannot be sent leave their calls `pending` for the scorer's sweep. */
async function enqueue(db: Db, config: ApiConfig, jobs: RequestRef[]): Promise<void> {
  await enqueueScoringJobs(config.scoringQueue, jobs, async (batch, err) => {
    logError("scoring enqueue failed", { jobs: batch.length }, err);
    await markNotEnqueued(db, batch).catch(() => {});
  });
}
