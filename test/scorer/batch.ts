/**
 * Running the scorer worker's consumer in a test: one `scoring-jobs` message per seeded request
 * (ids `j0`, `j1`, …), through `consumeBatch` with the given env, and the queue's record of what
 * was acked and retried.
 */
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { consumeBatch } from "../../workers/scorer/src/consume";
import type { ScorerEnv } from "../../workers/scorer/src/env";

/** A stored request to score: its id and project. */
export interface Seeded {
  id: string;
  projectId: string;
}

/** Runs the consumer on one message per seeded request; resolves to the batch's acks and retries. */
export async function consume(requests: Seeded[], e: ScorerEnv) {
  const batch = createMessageBatch(
    "scoring-jobs",
    requests.map((r, i) => ({ id: `j${i}`, body: { request_id: r.id, project_id: r.projectId }, timestamp: new Date(), attempts: 1 })),
  );
  const ctx = createExecutionContext();
  await consumeBatch(batch, e, ctx);
  return getQueueResult(batch, ctx);
}
