/**
 * The sweep: re-enqueues requests that have waited too long for their scores (an enqueue that
 * failed after insert, a job dropped after the dead-letter queue's retries), so every stored
 * request ends with exactly six score rows; first it makes sure the monthly partitions of the
 * coming months exist (./partitions.ts). Run by the scorer's cron (every 2 minutes) and by
 * `POST /internal/sweep` on the API (workers/api/src/routes/sweep.ts), which `npm run dev` calls every
 * minute because cron triggers never fire under `wrangler dev`.
 */
import type { DbConfig } from "../db/driver/client";
import { withDb } from "../db/driver/with-db";
import { claimStaleRequests, markNotEnqueued } from "../db/request-scoring";
import { enqueueScoringJobs } from "../queues/scoring-jobs";
import { logError, logInfo } from "../logger";
import { ensurePartitions } from "./partitions";

/** What a sweep needs from the worker's config (both the API's and the scorer's have it). */
export interface SweepConfig {
  /** The database (`createDb`). */
  db: DbConfig;
  /** Producer of scoring-jobs. */
  scoringQueue: Queue<unknown>;
}

/** A request is stale after waiting this long for scores (5 minutes). */
export const STALE_AFTER_SECONDS = 300;

/** Requests re-enqueued per sweep at most. */
export const SWEEP_LIMIT = 1_000;

/**
 * Runs one sweep: the coming months' partitions (a failure is logged and the sweep goes on; the
 * months ahead leave time for the next run), then the stale requests; returns how many jobs were
 * re-enqueued.
 */
export function sweep(config: SweepConfig, olderThanSeconds = STALE_AFTER_SECONDS): Promise<number> {
  return withDb(config.db, async (db) => {
    const created = await ensurePartitions(db).catch((err: unknown) => {
      logError("creating monthly partitions failed", {}, err);
      return 0;
    });
    if (created > 0) logInfo("sweep created monthly partitions", { count: created });
    const jobs = await claimStaleRequests(db, olderThanSeconds, SWEEP_LIMIT);
    const sent = await enqueueScoringJobs(config.scoringQueue, jobs, async (batch, err) => {
      logError("sweep enqueue failed", { count: batch.length }, err);
      await markNotEnqueued(db, batch);
    });
    if (jobs.length) logInfo("sweep re-enqueued stale requests", { count: sent });
    return sent;
  });
}
