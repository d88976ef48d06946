/**
 * Helpers of the durable-capture tests (workers project): the real proxy handler wired to this
 * worker's queue and bucket, the log-records consumer run on a hand-made batch, and reads of
 * what was stored.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { uuidv7 } from "uuidv7";
import { hashKey } from "../../src/auth/keys";
import { consumeLogRecords } from "../../workers/api/src/log-records/consume";
import type { AppEnv } from "../../workers/api/src/env";
import { type ScoringCalls, scoringRequestIds } from "../../src/queues/scoring-jobs";
import proxyWorker from "../../workers/proxy/src/index";
import type { ProxyEnv } from "../../workers/proxy/src/env";
import { consumeBatch } from "../../workers/scorer/src/consume";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { logBody, sql } from "./helpers";
import type { StoredBodies } from "../../src/bodies/columns";
import { readBodies } from "../../src/bodies/read";

export const apiEnv = env as unknown as AppEnv & { LOG_QUEUE: Queue; TEST_UPSTREAM_URL: string };

/** The capture proxy's handler with this worker's queue and bucket; waits for its waitUntil work. */
export async function throughProxy(key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const proxyEnv = {
    API: undefined,
    LOG_QUEUE: apiEnv.LOG_QUEUE,
    LOG_PAYLOADS: apiEnv.LOG_PAYLOADS,
    UPSTREAM_BASE_URL: apiEnv.TEST_UPSTREAM_URL,
  } as unknown as ProxyEnv;
  const ctx = createExecutionContext();
  const request = new Request("http://proxy.test/v1/chat/completions", {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: "Bearer sk-test", "X-Service-Key": key, ...headers },
    body: JSON.stringify(body),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await proxyWorker.fetch(request, proxyEnv, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

/** Polls until `check` returns a value (or the deadline passes). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The columns of `llm_requests` that locate a call's bodies (src/bodies/columns.ts), for raw SQL reads in tests. */
export const BODY_COLUMNS = "request_body, response_body, body_key, request_body_offset, request_body_length, response_body_offset, response_body_length";

/** A project's stored calls in id order, their bodies read through src/bodies/ (inline or from R2). */
export async function rowsOf(projectId: string) {
  const rows = await sql<StoredBodies & { id: string; model: string; scoring_state: string; metadata: Record<string, unknown> }>(
    `SELECT id, model, ${BODY_COLUMNS}, scoring_state, metadata FROM llm_requests WHERE project_id = $1 ORDER BY id`,
    [projectId],
  );
  return readBodies(apiEnv.BODIES, rows);
}
export const usedOf = async (projectId: string) =>
  Number((await sql("SELECT requests_this_period FROM subscriptions WHERE project_id = $1", [projectId]))[0]!.requests_this_period);

/** A log-records message body as the proxy sends it (contentType "text"). */
export async function message(key: string, record: Record<string, unknown> = logBody(), recordId = uuidv7()) {
  return { recordId, body: JSON.stringify({ v: 1, record_id: recordId, key_hash: await hashKey(key), record }) };
}

/**
 * The API worker's env with SCORING_QUEUE recording each message (`messages`) and the call ids
 * they name (`jobs`) before sending them on (or failing).
 */
export function withJobs(fail = false): { env: AppEnv; jobs: string[]; messages: ScoringCalls[] } {
  const jobs: string[] = [];
  const messages: ScoringCalls[] = [];
  const queue = {
    send: () => Promise.reject(new Error("not used")),
    async sendBatch(sent: { body: ScoringCalls }[]) {
      if (fail) throw new Error("Queue sendBatch failed: simulated crash after the statement");
      messages.push(...sent.map((m) => m.body));
      jobs.push(...sent.flatMap((m) => scoringRequestIds(m.body) ?? []));
      return apiEnv.SCORING_QUEUE.sendBatch(sent);
    },
  };
  return { env: { ...apiEnv, SCORING_QUEUE: queue as unknown as Queue }, jobs, messages };
}

/** Runs the consumer on one batch; returns what it acked and retried. */
export async function consume(bodies: string[], e: AppEnv = apiEnv, attempts = 1) {
  const batch = createMessageBatch(
    "log-records",
    bodies.map((body, i) => ({ id: `m${i}`, timestamp: new Date(), attempts, body })),
  );
  // getQueueResult does not report retry delays: record them on the way through.
  const delays: (number | undefined)[] = [];
  const messages = batch.messages.map((m) =>
    Object.assign(Object.create(m) as Message<unknown>, {
      retry: (options?: QueueRetryOptions) => {
        delays.push(options?.delaySeconds);
        m.retry(options);
      },
      ack: () => m.ack(),
    }),
  );
  const ctx = createExecutionContext();
  await consumeLogRecords({ ...batch, queue: batch.queue, messages, retryAll: batch.retryAll.bind(batch), ackAll: batch.ackAll.bind(batch) }, e, ctx);
  return { ...(await getQueueResult(batch, ctx)), delays };
}

/** Runs the scorer's consumer on the job of one request; returns the scorer names that wrote a score. */
export async function scoreNow(requestId: string, projectId: string): Promise<string[]> {
  const batch = createMessageBatch("scoring-jobs", [{ id: "s1", timestamp: new Date(), attempts: 1, body: { request_id: requestId, project_id: projectId } }]);
  const ctx = createExecutionContext();
  await consumeBatch(batch, env as unknown as ScorerEnv, ctx);
  await getQueueResult(batch, ctx);
  const scores = await sql<{ scorer_name: string }>("SELECT scorer_name FROM safety_scores WHERE request_id = $1 ORDER BY scorer_name", [requestId]);
  return scores.map((s) => s.scorer_name);
}

/** The messages the dead-letter queue `log-records-dlq` received for a key (test/proxy/log-sink.mjs). */
export async function deadLetters(key: string): Promise<{ message: { record_id: string; payload?: string }; via: string; record: Record<string, unknown> }[]> {
  const sink = (env as unknown as { DLQ_SINK: Fetcher }).DLQ_SINK;
  return (await sink.fetch(`http://dlq-sink/__records?key_hash=${await hashKey(key)}`)).json();
}

/**
 * Makes PostgreSQL refuse rows whose model is `db-refuses-<SQLSTATE>-...` with that SQLSTATE (a
 * test trigger on llm_requests): a record valid at the API that the database will not store.
 */
export async function refuseModelsByName(): Promise<void> {
  await sql(`CREATE OR REPLACE FUNCTION test_refuse_model() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.model LIKE 'db-refuses-%' THEN
        RAISE EXCEPTION 'refused by the test trigger' USING ERRCODE = split_part(NEW.model, '-', 3);
      END IF;
      RETURN NEW;
    END $$`);
  await sql("CREATE OR REPLACE TRIGGER test_refuse_model BEFORE INSERT ON llm_requests FOR EACH ROW EXECUTE FUNCTION test_refuse_model()");
}
