/**
 * The sweep: re-enqueues requests that have waited too long for their scores (an enqueue that
 * failed after insert, a job dropped after the dead-letter queue's retries), so every stored
 * request ends with exactly six score rows. Run by the scorer's cron (every 2 minutes) and by
 * `POST /internal/sweep` on the API (src/routes/sweep.ts), which `npm run dev` calls every
 * minute because cron triggers never fire under `wrangler dev`.
 */
import type { DbConfig } from "./db/driver/client";
import { withDb } from "./db/driver/with-db";
import { claimStaleRequests, releaseClaim } from "./db/request-scoring";
import type { ScoringJob } from "./queue";
import { logError, logInfo } from "./logger";

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

/** Messages per `sendBatch` call (the Queues limit is 100 messages per batch). */
const SEND_BATCH = 100;

/** Runs one sweep; returns how many jobs were re-enqueued. */
export function sweep(config: SweepConfig, olderThanSeconds = STALE_AFTER_SECONDS): Promise<number> {
  return withDb(config.db, async (db) => {
    const jobs: ScoringJob[] = await claimStaleRequests(db, olderThanSeconds, SWEEP_LIMIT);
    let sent = 0;
    for (let i = 0; i < jobs.length; i += SEND_BATCH) {
      const chunk = jobs.slice(i, i + SEND_BATCH);
      try {
        await config.scoringQueue.sendBatch(chunk.map((body) => ({ body, contentType: "json" as const })));
        sent += chunk.length;
      } catch (err) {
        logError("sweep enqueue failed", { count: chunk.length }, err);
        await releaseClaim(
          db,
          chunk.map((j) => j.request_id),
        );
      }
    }
    if (jobs.length) logInfo("sweep re-enqueued stale requests", { count: sent });
    return sent;
  });
}
