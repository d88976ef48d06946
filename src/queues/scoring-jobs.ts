/**
 * The `scoring-jobs` queue and its dead-letter queue `scoring-jobs-dlq` (docs/decisions.md D4).
 * Two kinds of message travel on it:
 * - `ScoringJob` `{request_id, project_id}`: score a new call. Ids only, because queue messages
 *   are capped at 128 KB; the consumer loads the bodies from Postgres. Produced by the API
 *   (POST /internal/log, OTLP ingest, the log-records consumer) and by the sweep (src/sweep.ts).
 * - `RescoreMessage` `{rescore_job_id}`: run the next chunks of a re-scoring job
 *   (docs/rescoring.md, workers/scorer/src/rescore.ts).
 * Both are consumed by workers/scorer/src/consume.ts, which also consumes the dead-letter queue.
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

/** A new call to score. */
export interface ScoringJob {
  request_id: string;
  project_id: string;
}

/** True for a well-formed `ScoringJob`. */
export function isScoringJob(body: unknown): body is ScoringJob {
  const b = body as Partial<ScoringJob> | null;
  return isUuid(b?.request_id) && typeof b?.project_id === "string";
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
 * Enqueues `jobs` in batches of 100. Without `failed` the first refused batch throws; with it,
 * each refused batch is handed to `failed` and the rest are still sent. Returns how many were sent.
 */
export function enqueueScoringJobs(
  queue: Queue<unknown>,
  jobs: readonly ScoringJob[],
  failed?: (batch: readonly ScoringJob[], err: unknown) => Promise<void>,
): Promise<number> {
  return sendInBatches<ScoringJob>(queue, jobs, failed);
}

/** Sends one `RescoreMessage` per job id (batches of 100). Throws when the queue refuses. */
export async function enqueueRescores(queue: Queue<unknown>, ids: readonly string[]): Promise<void> {
  await sendInBatches<RescoreMessage>(
    queue,
    ids.map((rescore_job_id) => ({ rescore_job_id })),
  );
}
