/**
 * The alert-deliveries consumer: each message names one delivery row (src/queues/alert-deliveries.ts). Per
 * batch one query loads the rows with their endpoint, score and request; each is POSTed
 * (src/alerts/send.ts) and its outcome recorded on the row.
 *
 * - Delivered (2xx): state `delivered`, acked.
 * - Network error, timeout, 408, 429 or 5xx: state `retrying` and the message is retried after
 *   the exponential delay `ALERT_DELIVERIES_RETRY`, until WEBHOOK_MAX_ATTEMPTS attempts were made;
 *   then state `dead` (the dead-letter record the deliveries route shows), acked.
 * - Any other answer (4xx, 3xx) or a URL the guard now refuses: `dead` at once, acked.
 * - A row already `delivered` or `dead` (a redelivered message), or gone (endpoint deleted):
 *   acked without sending, so a score reaches an endpoint once.
 * - Database unreachable while loading: the batch is retried with the scoring backoff
 *   (`SCORING_JOBS_RETRY`, 5 s doubling to 60 s), not the endpoint schedule.
 */
import type { AlertConfig } from "../../../src/alerts/config";
import { dashboardLink, eventBody, SCORE_UNSAFE, scoreUnsafeEvent, type AlertEvent } from "../../../src/alerts/events";
import { attemptDelivery } from "../../../src/alerts/send";
import { configOrRetry } from "../../../src/config/parse";
import type { Db } from "../../../src/db/driver/client";
import { withDb } from "../../../src/db/driver/with-db";
import { claimStaleDeliveries, type DeliveryToSend, loadDeliveries, recordAttempt } from "../../../src/db/alerts";
import { ALERT_DELIVERIES_RETRY, enqueueDeliveries, isAlertJob } from "../../../src/queues/alert-deliveries";
import { backoffSeconds } from "../../../src/queues/backoff";
import { SCORING_JOBS_RETRY } from "../../../src/queues/scoring-jobs";
import { logError, logInfo, logWarn } from "../../../src/logger";
import { type ScorerConfig, scorerConfig } from "./config";
import type { ScorerEnv } from "./env";
import { groupMessagesById } from "./group-messages";

/** A delivery is re-enqueued by the sweep once it is this overdue (5 minutes, as scoring jobs). */
const STALE_DELIVERY_SECONDS = 300;

/** The event a delivery carries, or null when its score is gone. */
function eventOf(d: DeliveryToSend, config: AlertConfig): AlertEvent | null {
  if (d.event_type !== SCORE_UNSAFE || !d.score) return null;
  const s = d.score;
  return scoreUnsafeEvent({
    request_id: s.request_id,
    project_id: d.project_id,
    scorer_name: s.scorer_name,
    score_value: s.score_value,
    score_label: s.score_label,
    rationale: s.rationale,
    model: s.model,
    created_at: s.created_at.toISOString(),
    dashboard_url: dashboardLink(config.dashboardUrl, d.project_id, s.request_id),
  });
}

/** Sends one delivery and records the outcome; acks or retries `messages`. */
async function deliverOne(db: Db, d: DeliveryToSend, messages: Message<unknown>[], config: AlertConfig): Promise<void> {
  const settle = (retryIn?: number) => {
    for (const m of messages) retryIn === undefined ? m.ack() : m.retry({ delaySeconds: retryIn });
  };
  if (d.state === "delivered" || d.state === "dead") return settle();
  const event = eventOf(d, config);
  if (!event) {
    await recordAttempt(db, d.id, { state: "dead", attempts: d.attempts, last_status: null, last_error: "the score no longer exists" });
    return settle();
  }
  const outcome = await attemptDelivery(d, { id: d.id, body: eventBody(event, d.format, d.created_at) }, config);
  const attempts = d.attempts + 1;
  if (outcome.ok) {
    // Acked even if recording fails: a second POST would be worse than a stale state.
    await recordAttempt(db, d.id, { state: "delivered", attempts, last_status: outcome.status, last_error: null }).catch((err: unknown) =>
      logWarn("recording a delivered alert failed", { delivery_id: d.id }, err),
    );
    return settle();
  }
  const again = outcome.retryable && attempts < config.maxAttempts;
  const retryIn = again ? backoffSeconds(attempts, { ...ALERT_DELIVERIES_RETRY, firstSeconds: config.retryBaseSeconds }) : undefined;
  await recordAttempt(db, d.id, {
    state: again ? "retrying" : "dead",
    attempts,
    last_status: outcome.status,
    last_error: outcome.error,
    ...(retryIn === undefined ? {} : { retry_in_seconds: retryIn }),
  });
  settle(retryIn);
}

/** Handles one batch of alert jobs; see the module doc for what is acked and retried. */
export async function consumeDeliveries(batch: MessageBatch<unknown>, env: ScorerEnv, ctx: ExecutionContext): Promise<void> {
  const scorer = configOrRetry(scorerConfig, env, batch);
  if (!scorer) return;
  const config = scorer.alerts;
  await withDb(scorer.db, (db) => deliverBatch(db, batch, config), ctx);
}

/** Sends the deliveries of `batch`'s alert jobs. */
async function deliverBatch(db: Db, batch: MessageBatch<unknown>, config: AlertConfig): Promise<void> {
  const jobs = groupMessagesById(batch.messages, (body) => (isAlertJob(body) ? [body.delivery_id] : undefined), "alert job");
  if (jobs.size === 0) return;
  let rows: DeliveryToSend[];
  try {
    rows = await loadDeliveries(db, [...jobs.keys()]);
  } catch (err) {
    logWarn("loading alert deliveries failed; batch will be retried", {}, err);
    for (const m of batch.messages) m.retry({ delaySeconds: backoffSeconds(m.attempts, SCORING_JOBS_RETRY) });
    return;
  }
  await Promise.all(
    rows.map((d) =>
      deliverOne(db, d, jobs.get(d.id) ?? [], config).catch((err: unknown) => {
        logWarn("recording an alert attempt failed; will retry", { delivery_id: d.id }, err);
        for (const m of jobs.get(d.id) ?? []) m.retry({ delaySeconds: backoffSeconds(m.attempts, SCORING_JOBS_RETRY) });
      }),
    ),
  );
  // Deliveries of deleted endpoints are gone with them.
  const found = new Set(rows.map((d) => d.id));
  for (const [id, messages] of jobs) if (!found.has(id)) for (const m of messages) m.ack();
}

/**
 * The alert sweep, run with the scoring sweep by the scorer's cron: re-enqueues deliveries whose
 * message seems lost (src/db/alerts.ts `claimStaleDeliveries`). Returns how many were sent.
 */
export async function sweepDeliveries(config: ScorerConfig): Promise<number> {
  return withDb(config.db, async (db) => {
    try {
      const ids = await claimStaleDeliveries(db, STALE_DELIVERY_SECONDS, 1_000);
      await enqueueDeliveries(config.alertQueue, ids);
      if (ids.length) logInfo("sweep re-enqueued alert deliveries", { count: ids.length });
      return ids.length;
    } catch (err) {
      logError("alert sweep failed", {}, err);
      return 0;
    }
  });
}
