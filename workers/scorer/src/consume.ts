/**
 * The scoring-jobs consumer: per batch, one query loads every request, the six scorers run,
 * one multi-row insert stores the scores, and each message is acked or retried on its own.
 *
 * - A malformed message can never succeed: acked and reported.
 * - A request whose record is gone (deleted project): acked and reported, not retried forever.
 * - A request already `scored` (a redelivered or duplicated job): acked without scoring again,
 *   so it never costs a second guard-model call.
 * - Database unreachable while loading: the whole batch is retried with exponential backoff
 *   (src/queues/scoring-jobs.ts); after `max_retries` the queue dead-letters it to scoring-jobs-dlq, whose
 *   batches come through this same handler with a longer backoff.
 * - The batch insert fails: requests are written one by one, so one poison request is
 *   retried alone and the rest are acked.
 * - With a guard-model backend configured (Workers AI or an OpenAI-compatible endpoint) and a
 *   project policy `judge` other than `off`, a guard model decides the scores the policy sends it,
 *   within the project's monthly budget (judge/tier.ts); a judge failure keeps the local score
 *   and never retries a message.
 * - Scores that reach an alert endpoint's threshold get their delivery rows in the statement that
 *   stores them (src/db/alerts.ts); their ids go to the alert-deliveries queue (deliver.ts).
 * - Scores follow the project's policy (src/policy/apply.ts: disabled scorers write nothing,
 *   labels from `unsafe_at`, versions recorded); `{rescore_job_id}` messages run a chunk of a
 *   re-scoring job (rescore.ts).
 * - Calls that carry `metadata.session_id` then have their session judged whole (sessions.ts);
 *   a failure there is logged and never retries a message.
 * - Calls logged without a cost are priced first (src/pricing/fill-costs.ts); failing to store
 *   a cost is reported and does not hold back the scores.
 */
import { configOrRetry } from "../../../src/config/parse";
import type { Db } from "../../../src/db/driver/client";
import { withDb } from "../../../src/db/driver/with-db";
import { loadCalls, saveCosts, saveScores, type RequestScores } from "../../../src/db/request-scoring";
import { enqueueDeliveries } from "../../../src/queues/alert-deliveries";
import { priceUnpricedCalls } from "../../../src/pricing/fill-costs";
import { scoreCall } from "../../../src/policy/apply";
import { type ScorerConfig, scorerConfig } from "./config";
import type { ScorerEnv } from "./env";
import { backoffSeconds } from "../../../src/queues/backoff";
import { judgeScores } from "./judge/tier";
import { groupMessagesById } from "./group-messages";
import { isRescoreMessage, isScoringJob, scoringRetry } from "../../../src/queues/scoring-jobs";
import { consumeRescores } from "./rescore";
import { logWarn } from "../../../src/logger";
import { scoreSessions } from "./sessions";

/** Asks for `m` again later, after its backoff delay on `queue`. */
const retryLater = (m: Message<unknown>, queue: string) => m.retry({ delaySeconds: backoffSeconds(m.attempts, scoringRetry(queue)) });

async function saveEach(db: Db, groups: Map<string, { scores: RequestScores; messages: Message<unknown>[] }>, queue: string, alerts: string[]) {
  for (const { scores, messages } of groups.values()) {
    try {
      alerts.push(...(await saveScores(db, [scores])));
      for (const m of messages) m.ack();
    } catch (err) {
      logWarn("saving scores failed; will retry", { request_id: scores.request_id }, err);
      for (const m of messages) retryLater(m, queue);
    }
  }
}

/** Handles one batch of scoring jobs; see the module doc for what is acked and retried. */
export async function consumeBatch(batch: MessageBatch<unknown>, env: ScorerEnv, ctx: ExecutionContext): Promise<void> {
  const config = configOrRetry(scorerConfig, env, batch);
  if (!config) return;
  const rescores: Message<unknown>[] = [];
  try {
    await withDb(config.db, (db) => scoreJobs(db, batch, config, rescores), ctx);
  } finally {
    // Re-scoring chunks (docs/rescoring.md) come after this batch's new calls; they ack or retry themselves.
    if (rescores.length > 0) await consumeRescores(config, rescores, batch.queue, ctx);
  }
}

/** Scores the batch's new calls; collects its re-scoring messages into `rescores`. */
async function scoreJobs(db: Db, batch: MessageBatch<unknown>, config: ScorerConfig, rescores: Message<unknown>[]): Promise<void> {
  const fresh: Message<unknown>[] = [];
  for (const msg of batch.messages) (isRescoreMessage(msg.body) ? rescores : fresh).push(msg);
  const jobs = groupMessagesById(fresh, isScoringJob, (job) => job.request_id, "scoring job");
  if (jobs.size === 0) return;

  let calls: Awaited<ReturnType<typeof loadCalls>>;
  try {
    calls = await loadCalls(db, [...jobs.keys()]);
  } catch (err) {
    logWarn("loading requests failed; batch will be retried", {}, err);
    for (const messages of jobs.values()) for (const m of messages) retryLater(m, batch.queue);
    return;
  }

  for (const call of calls.filter((c) => c.scoring_state === "scored")) {
    for (const m of jobs.get(call.id) ?? []) m.ack();
    jobs.delete(call.id);
  }
  calls = calls.filter((c) => c.scoring_state !== "scored");

  // Calls logged without a cost (client libraries) are priced before scoring.
  const costs = await priceUnpricedCalls(calls);
  for (const call of calls) call.cost_usd = costs.get(call.id)?.cost_usd ?? call.cost_usd;
  await saveCosts(db, costs).catch((err: unknown) => logWarn("saving computed costs failed; the scores still go ahead", {}, err));

  const scored = calls.map((call) => ({ call, scores: scoreCall(call, call.policy) }));
  if (config.judge) await judgeScores(db, config.judge, scored);
  const groups = new Map<string, { scores: RequestScores; messages: Message<unknown>[] }>();
  for (const { call, scores } of scored) {
    groups.set(call.id, { scores: { request_id: call.id, project_id: call.project_id, scores }, messages: jobs.get(call.id) ?? [] });
  }
  for (const [id, messages] of jobs) {
    if (groups.has(id)) continue;
    logWarn("scoring job for a request that no longer exists", { request_id: id });
    for (const m of messages) m.ack();
  }

  const alerts: string[] = [];
  try {
    alerts.push(
      ...(await saveScores(
        db,
        [...groups.values()].map((g) => g.scores),
      )),
    );
    for (const g of groups.values()) for (const m of g.messages) m.ack();
  } catch (err) {
    logWarn("batch insert of scores failed; writing one by one", {}, err);
    await saveEach(db, groups, batch.queue, alerts);
  }
  // Conversations judged whole once their new calls' scores are stored (docs/sessions.md).
  await scoreSessions(
    db,
    config.judge,
    scored.map((s) => s.call),
  );
  // The deliveries are stored with the scores; a failed enqueue leaves them to the sweep.
  await enqueueDeliveries(config.alertQueue, alerts).catch((err: unknown) =>
    logWarn("enqueueing alert deliveries failed; the sweep sends them", { count: alerts.length }, err),
  );
}
