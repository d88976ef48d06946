/**
 * The `scoring-jobs` queue and its dead-letter queue `scoring-jobs-dlq` (docs/decisions.md D4).
 * Three kinds of message travel on it:
 * - `ScoringCalls` `{request_ids: [...], created_at: [...]}`: score these new calls (issue 34,
 *   point 3). Ids and times only, because queue messages are capped at 128 KB; the consumer
 *   loads the bodies from Postgres, reading only the months of the calls' `created_at`
 *   (docs/storage.md). Messages without `created_at` (earlier deploys) are still scored: the ids'
 *   own time stands in (src/db/request-time.ts).
 *   Calls that arrive together share a message: a log-records consumer batch or an OTLP export
 *   (up to 100 calls) is one message, the sweep's 1,000 stale calls ten. At most
 *   SCORING_CALLS_PER_MESSAGE calls: about 7.5 KB, under the 128 KB message limit and inside one
 *   64 KB billing unit (3 operations: write, read, delete). Produced by the API (POST
 *   /internal/log, OTLP ingest, the log-records consumer) and by the sweep (src/upkeep/sweep.ts).
 * - `ScoringJob` `{request_id, project_id}`: the single-call message every producer sent before.
 *   Still accepted, so messages in flight during a deploy (or replayed from the dead-letter
 *   queue) are scored; no producer writes it any more.
 * - `RescoreMessage` `{rescore_job_id}`: run the next chunks of a re-scoring job
 *   (docs/rescoring.md, workers/scorer/src/rescore.ts).
 * All are consumed by workers/scorer/src/consume.ts, which also consumes the dead-letter queue.
 *
 * Retry delays during an outage (issue 12, point 3): exponential, 5 s doubling per delivery,
 * capped. On scoring-jobs the cap is 60 s, so once the database is back a job waits at most a
 * minute for its next try; with `max_retries: 10` (wrangler.jsonc) a job rides out
 * 5+10+20+40+6x60 = 435 s (over 7 minutes) of outage before it is dead-lettered. On
 * scoring-jobs-dlq the cap is 300 s: 10 more deliveries spread over about 30 minutes. A job
 * dropped after those is still found by the sweep, which re-enqueues every request left
 * unscored for 5 minutes.
 */
import type { Backoff } from "./backoff";
import { sendInBatches } from "./send";
import { isUuid } from "../util";
import type { RequestRef } from "../db/request-time";

/** Name of the queue (wrangler.jsonc: API producer `SCORING_QUEUE`; workers/scorer: consumer and producer). */
export const SCORING_JOBS_QUEUE = "scoring-jobs";

/** Its dead-letter queue (workers/scorer/wrangler.jsonc `dead_letter_queue`, consumed by the same handler). */
export const SCORING_JOBS_DLQ = "scoring-jobs-dlq";

/** Retry schedule on scoring-jobs: 5 s doubling, at most 60 s. */
export const SCORING_JOBS_RETRY: Backoff = { firstSeconds: 5, factor: 2, capSeconds: 60 };

/** Retry schedule on scoring-jobs-dlq: 5 s doubling, at most 300 s. */
export const SCORING_JOBS_DLQ_RETRY: Backoff = { ...SCORING_JOBS_RETRY, capSeconds: 300 };

/** The schedule of the queue a batch came from (`MessageBatch.queue`). */
export const scoringRetry = (queue: string): Backoff => (queue === SCORING_JOBS_DLQ ? SCORING_JOBS_DLQ_RETRY : SCORING_JOBS_RETRY);

/** Most call ids in one `ScoringCalls` message (as many as one log-records consumer batch holds). */
export const SCORING_CALLS_PER_MESSAGE = 100;

/** New calls to score, by `llm_requests.id` (1 .. SCORING_CALLS_PER_MESSAGE ids). */
export interface ScoringCalls {
  request_ids: string[];
  /**
   * Each call's stored `created_at` (PostgreSQL's text or ISO-8601), in the order of
   * `request_ids`; absent or null for a call whose time the producer does not know. Absent in
   * messages of earlier deploys.
   */
  created_at?: (string | null)[];
}

/** A timestamp as PostgreSQL writes it (`2026-11-27 20:43:43.123456+00`) or ISO-8601 with an offset. */
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}(:?\d{2}){0,2})$/;

/** The single-call message of earlier deploys (accepted, no longer produced). */
export interface ScoringJob {
  request_id: string;
  project_id: string;
}

/**
 * The calls a scoring message names, with their `created_at` when it carries them: those of a
 * `ScoringCalls` message, or the one of a `ScoringJob`. Undefined when `body` is neither (a
 * malformed message, or a `RescoreMessage`). Times that are not a list of timestamps as long as
 * the ids are left out (the ids' time stands in).
 */
export function scoringRequests(body: unknown): RequestRef[] | undefined {
  const msg = body as Partial<ScoringCalls> | null;
  const calls = msg?.request_ids;
  if (Array.isArray(calls)) {
    if (!(calls.length > 0 && calls.length <= SCORING_CALLS_PER_MESSAGE && calls.every((id) => isUuid(id)))) return undefined;
    const times = msg?.created_at;
    const known =
      Array.isArray(times) && times.length === calls.length && times.every((t) => t === null || (typeof t === "string" && TIMESTAMP_PATTERN.test(t)));
    return (calls as string[]).map((id, i) => ({ id, created_at: known ? times[i] : undefined }));
  }
  const job = body as Partial<ScoringJob> | null;
  return isUuid(job?.request_id) && typeof job?.project_id === "string" ? [{ id: job.request_id as string }] : undefined;
}

/** The call ids a scoring message names (`scoringRequests` without the times). */
export function scoringRequestIds(body: unknown): string[] | undefined {
  return scoringRequests(body)?.map((r) => r.id);
}

/** A re-scoring job's turn on the scoring queue. */
export interface RescoreMessage {
  rescore_job_id: string;
}

/** True for a well-formed `RescoreMessage`. */
export function isRescoreMessage(body: unknown): body is RescoreMessage {
  return isUuid((body as Partial<RescoreMessage> | null)?.rescore_job_id);
}

/**
 * Enqueues the calls `requests` (a call named twice is sent once) to be scored, with their
 * `created_at` when known, SCORING_CALLS_PER_MESSAGE per message (and up to 100 messages per
 * `sendBatch`). Without `failed` the first refused send throws; with it, the calls of each
 * refused send are handed to `failed` and the rest are still sent. Returns how many calls were sent.
 */
export async function enqueueScoringJobs(
  queue: Queue<unknown>,
  requests: readonly RequestRef[],
  failed?: (requests: readonly RequestRef[], err: unknown) => Promise<void>,
): Promise<number> {
  const unique = [...new Map(requests.map((r) => [r.id, r])).values()];
  const messages: ScoringCalls[] = [];
  for (let i = 0; i < unique.length; i += SCORING_CALLS_PER_MESSAGE) {
    const chunk = unique.slice(i, i + SCORING_CALLS_PER_MESSAGE);
    messages.push({ request_ids: chunk.map((r) => r.id), created_at: chunk.map((r) => r.created_at ?? null) });
  }
  let refused = 0;
  await sendInBatches<ScoringCalls>(
    queue,
    messages,
    failed &&
      (async (batch, err) => {
        const refs = batch.flatMap((m) => scoringRequests(m) ?? []);
        refused += refs.length;
        await failed(refs, err);
      }),
  );
  return unique.length - refused;
}

/** Sends one `RescoreMessage` per job id (batches of 100). Throws when the queue refuses. */
export async function enqueueRescores(queue: Queue<unknown>, ids: readonly string[]): Promise<void> {
  await sendInBatches<RescoreMessage>(
    queue,
    ids.map((rescore_job_id) => ({ rescore_job_id })),
  );
}
