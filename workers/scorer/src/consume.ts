/**
 * The scoring-jobs consumer: a message names up to 100 calls (`{request_ids}`, or the single-call
 * `{request_id, project_id}` of earlier deploys; src/queues/scoring-jobs.ts). The batch's calls
 * are scored in chunks of SCORE_CHUNK: one query loads a chunk's requests, the six scorers run,
 * one multi-row insert stores the scores. Then each message is acked when every call it names is
 * done, and retried otherwise.
 *
 * - A message with a failed call is retried whole: the redelivery loads its calls again, acks
 *   the ones already `scored` without scoring them again (no second score row, no second
 *   guard-model call), and scores only the rest. So per-call outcomes stay as with one call per
 *   message, and the queue's attempt count, backoff and dead-letter queue still apply to the
 *   call that keeps failing (a re-enqueue of just that call would restart its attempts).
 * - A malformed message can never succeed: acked and reported.
 * - A request whose record is gone (deleted project): acked and reported, not retried forever.
 * - A request already `scored` (a redelivered or duplicated job): acked without scoring again,
 *   so it never costs a second guard-model call.
 * - Database unreachable while loading: the messages of the chunk and of those after it are
 *   retried with exponential backoff
 *   (src/queues/scoring-jobs.ts); after `max_retries` the queue dead-letters it to scoring-jobs-dlq, whose
 *   batches come through this same handler with a longer backoff.
 * - The batch insert fails: requests are written one by one, so one poison request is
 *   retried (with the other calls of its message, which are then skipped) and the rest acked.
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
import { callScores, loadCalls, saveCosts, saveScores, type RequestScores } from "../../../src/db/request-scoring";
import { enqueueDeliveries } from "../../../src/queues/alert-deliveries";
import { priceUnpricedCalls } from "../../../src/pricing/fill-costs";
import { scoreCall } from "../../../src/policy/apply";
import { type ScorerConfig, scorerConfig } from "./config";
import type { ScorerEnv } from "./env";
import { backoffSeconds } from "../../../src/queues/backoff";
import { judgeScores } from "./judge/tier";
import { groupMessagesById } from "./group-messages";
import { isRescoreMessage, scoringRequestIds, scoringRequests, scoringRetry } from "../../../src/queues/scoring-jobs";
import type { RequestRef } from "../../../src/db/request-time";
import { consumeRescores } from "./rescore";
import { logWarn } from "../../../src/logger";
import { scoreSessions } from "./sessions";

/** Asks for `m` again later, after its backoff delay on `queue`. */
const retryLater = (m: Message<unknown>, queue: string) => m.retry({ delaySeconds: backoffSeconds(m.attempts, scoringRetry(queue)) });

/** Calls loaded, priced and scored in one go (the scorer's batch size before messages carried several calls). */
const SCORE_CHUNK = 25;

/** A loaded call and its scores. */
type Scored = { call: Awaited<ReturnType<typeof loadCalls>>[number]; scores: RequestScores["scores"] };

/** The row `saveScores` stores for a scored call. */
const scoreRow = ({ call, scores }: Scored): RequestScores => callScores(call, scores);

/** Stores each call's scores on its own; adds the calls whose write fails to `failed`. */
async function saveEach(db: Db, scored: Scored[], failed: Set<string>, alerts: string[]) {
  for (const s of scored) {
    try {
      alerts.push(...(await saveScores(db, [scoreRow(s)])));
    } catch (err) {
      logWarn("saving scores failed; will retry", { request_id: s.call.id }, err);
      failed.add(s.call.id);
    }
  }
}

/** Acks each message whose calls are all done; retries those naming a call in `failed`. */
function settle(jobs: Map<string, Message<unknown>[]>, failed: ReadonlySet<string>, queue: string): void {
  const again = new Set<Message<unknown>>();
  for (const id of failed) for (const m of jobs.get(id) ?? []) again.add(m);
  for (const m of new Set([...jobs.values()].flat())) again.has(m) ? retryLater(m, queue) : m.ack();
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
  const jobs = groupMessagesById(fresh, scoringRequestIds, "scoring job");
  if (jobs.size === 0) return;

  const ids = [...jobs.keys()];
  // Each call's created_at as its messages carry it (messages of earlier deploys carry none).
  const times = new Map<string, string>();
  for (const msg of fresh) for (const r of scoringRequests(msg.body) ?? []) if (r.created_at) times.set(r.id.toLowerCase(), r.created_at);
  const failed = new Set<string>();
  const calls: Scored["call"][] = [];
  const alerts: string[] = [];
  for (let i = 0; i < ids.length; i += SCORE_CHUNK) {
    const chunk = ids.slice(i, i + SCORE_CHUNK).map((id) => ({ id, created_at: times.get(id) }));
    const scored = await scoreChunk(db, chunk, config, failed, alerts);
    if (!scored) {
      // The database is unreachable: the chunks after this one would fail the same way.
      for (const id of ids.slice(i)) failed.add(id);
      break;
    }
    calls.push(...scored);
  }
  settle(jobs, failed, batch.queue);
  // Conversations judged whole once their new calls' scores are stored (docs/sessions.md).
  await scoreSessions(db, config.bodies, config.judge, calls);
  // The deliveries are stored with the scores; a failed enqueue leaves them to the sweep.
  await enqueueDeliveries(config.alertQueue, alerts).catch((err: unknown) =>
    logWarn("enqueueing alert deliveries failed; the sweep sends them", { count: alerts.length }, err),
  );
}

/**
 * Loads, prices, scores and stores the calls `refs` not yet scored; adds the ids whose scores
 * could not be stored to `failed` and the alert deliveries created to `alerts`. Returns the calls
 * scored, or undefined when the calls could not be loaded.
 */
async function scoreChunk(db: Db, refs: RequestRef[], config: ScorerConfig, failed: Set<string>, alerts: string[]): Promise<Scored["call"][] | undefined> {
  let calls: Awaited<ReturnType<typeof loadCalls>>;
  try {
    calls = await loadCalls(db, config.bodies, refs);
  } catch (err) {
    logWarn("loading requests failed; their messages will be retried", { requests: refs.length }, err);
    return undefined;
  }
  const found = new Set(calls.map((c) => c.id));
  for (const { id } of refs) if (!found.has(id)) logWarn("scoring job for a request that no longer exists", { request_id: id });
  calls = calls.filter((c) => c.scoring_state !== "scored");

  // Calls logged without a cost (client libraries) are priced before scoring.
  const costs = await priceUnpricedCalls(calls);
  for (const call of calls) call.cost_usd = costs.get(call.id)?.cost_usd ?? call.cost_usd;
  const priced = calls.flatMap((call) => {
    const cost = costs.get(call.id);
    return cost ? [{ id: call.id, created_at: call.created_at, cost }] : [];
  });
  await saveCosts(db, priced).catch((err: unknown) => logWarn("saving computed costs failed; the scores still go ahead", {}, err));

  const scored: Scored[] = calls.map((call) => ({ call, scores: scoreCall(call, call.policy) }));
  if (config.judge) await judgeScores(db, config.judge, scored);
  if (scored.length === 0) return calls;
  try {
    alerts.push(...(await saveScores(db, scored.map(scoreRow))));
  } catch (err) {
    logWarn("batch insert of scores failed; writing one by one", {}, err);
    await saveEach(db, scored, failed, alerts);
  }
  return calls;
}
