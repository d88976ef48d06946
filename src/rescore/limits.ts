/**
 * The sizes and limits of re-scoring (docs/rescoring.md). Its queue message, `{rescore_job_id}`,
 * lives in the scoring queue's room (src/queues/scoring-jobs.ts).
 */

/** Requests re-scored per chunk (one load, one insert, one cursor update). */
export const RESCORE_CHUNK = 250;

/** Chunks per message (1,000 calls): then the job hands itself back to the queue, so new calls are never held up long. */
export const CHUNKS_PER_MESSAGE = 4;

/** Longest range of one job (`until - since`), in days. */
export const MAX_RESCORE_DAYS = 90;

/** A running job that has not moved for this long is sent again by the scheduled handler (a lost message, a restart). */
export const STALLED_AFTER_SECONDS = 120;
