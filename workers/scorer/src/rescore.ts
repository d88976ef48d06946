/**
 * Re-scoring chunks on the scoring queue (docs/rescoring.md). A `{rescore_job_id}` message runs
 * up to CHUNKS_PER_MESSAGE chunks of RESCORE_CHUNK requests of its job: load the calls with
 * their projects' policies, score them under the policy in force now (src/policy/apply.ts;
 * without the Llama Guard judge: re-scoring is free), store them as the current scores with the
 * previous ones kept as history (src/db/request-scoring.ts `saveScores`), and move the job's cursor.
 * Then the message hands the job back to the queue, so jobs take turns with new calls instead
 * of holding a consumer. A failure retries the message, which resumes from the stored cursor;
 * the scheduled handler re-sends jobs whose message was lost (src/rescore/maintain.ts).
 */
import type { Db } from "../../../src/db/driver/client";
import { withDb } from "../../../src/db/driver/with-db";
import { advanceJob, findRescoreJob, nextChunk } from "../../../src/db/rescore";
import { callScores, loadCalls, saveScores } from "../../../src/db/request-scoring";
import { logWarn } from "../../../src/logger";
import { scoreCall } from "../../../src/policy/apply";
import { CHUNKS_PER_MESSAGE, RESCORE_CHUNK } from "../../../src/rescore/limits";
import { backoffSeconds } from "../../../src/queues/backoff";
import { type RescoreMessage, scoringRetry } from "../../../src/queues/scoring-jobs";
import type { ScorerConfig } from "./config";
import type { BodyBucket } from "../../../src/bodies/bucket";

/** Re-scores up to CHUNKS_PER_MESSAGE chunks of job `jobId`; sends the job's next message when some are left. */
export async function runRescoreChunks(db: Db, bodies: BodyBucket | null, queue: Queue<unknown>, jobId: string): Promise<void> {
  for (let i = 0; i < CHUNKS_PER_MESSAGE; i++) {
    const job = await findRescoreJob(db, jobId);
    if (job?.state !== "running") return;
    const chunk = await nextChunk(db, job, RESCORE_CHUNK);
    if (chunk.length > 0) {
      const calls = await loadCalls(db, bodies, chunk);
      await saveScores(
        db,
        calls.map((call) => callScores(call, scoreCall(call, call.policy))),
      );
    }
    const finished = chunk.length < RESCORE_CHUNK;
    // Another delivery of this message moved the job first: it carries on from there.
    if (!(await advanceJob(db, job, chunk.at(-1), chunk.length, finished)) || finished) return;
  }
  const next: RescoreMessage = { rescore_job_id: jobId };
  await queue.send(next, { contentType: "json" });
}

/** Seconds before a job that did not get this batch's turn is delivered again. */
const WAIT_TURN_SECONDS = 5;

/**
 * Runs the re-scoring messages of a batch, each acked when done or retried with backoff. One
 * job gets the batch's turn; the others are sent again for a later batch (their messages
 * acked), so an invocation re-scores at most CHUNKS_PER_MESSAGE chunks however many jobs run.
 * Never throws.
 */
export async function consumeRescores(config: ScorerConfig, messages: readonly Message<unknown>[], queue: string, ctx: ExecutionContext): Promise<void> {
  await withDb(
    config.db,
    async (db) => {
      for (const [i, m] of messages.entries()) {
        const { rescore_job_id } = m.body as RescoreMessage;
        try {
          if (i === 0) await runRescoreChunks(db, config.bodies, config.scoringQueue, rescore_job_id);
          else await config.scoringQueue.send({ rescore_job_id } satisfies RescoreMessage, { contentType: "json", delaySeconds: WAIT_TURN_SECONDS });
          m.ack();
        } catch (err) {
          logWarn("re-scoring chunk failed; will retry from the job's cursor", { rescore_job_id }, err);
          m.retry({ delaySeconds: backoffSeconds(m.attempts, scoringRetry(queue)) });
        }
      }
    },
    ctx,
  );
}
