/**
 * The scoring queue's re-scoring message (docs/rescoring.md): `{rescore_job_id}` asks the scorer
 * worker to re-score the next chunks of that job (workers/scorer/src/rescore.ts). It travels on
 * scoring-jobs beside the `{request_id, project_id}` jobs of new calls (src/queue.ts).
 */
import { isUuid } from "../util";

/** A re-scoring job's turn on the scoring queue. */
export interface RescoreMessage {
  rescore_job_id: string;
}

/** True for a well-formed `RescoreMessage`. */
export function isRescoreMessage(body: unknown): body is RescoreMessage {
  return isUuid((body as Partial<RescoreMessage> | null)?.rescore_job_id);
}

/** Requests re-scored per chunk (one load, one insert, one cursor update). */
export const RESCORE_CHUNK = 250;

/** Chunks per message (1,000 calls): then the job hands itself back to the queue, so new calls are never held up long. */
export const CHUNKS_PER_MESSAGE = 4;

/** Longest range of one job (`until - since`), in days. */
export const MAX_RESCORE_DAYS = 90;

/** A running job that has not moved for this long is sent again by the scheduled handler (a lost message, a restart). */
export const STALLED_AFTER_SECONDS = 120;
