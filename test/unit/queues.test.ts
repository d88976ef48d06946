/**
 * The queues' rooms (src/queues/): each room's queue names are the queues the workers'
 * wrangler.jsonc files produce to and consume from, so a name cannot drift from its config; and
 * each retry schedule keeps the delays and windows its room's doc promises; a scoring message
 * names its calls in the current shape and in the single-call shape of earlier deploys.
 */
import { describe, expect, it } from "vitest";
import { readWorkerConfig, WORKERS, type WorkerConfigRef } from "../../scripts/lib/wrangler-config";
import { ALERT_DEFAULTS } from "../../src/alerts/config";
import { ALERT_DELIVERIES_QUEUE, ALERT_DELIVERIES_RETRY } from "../../src/queues/alert-deliveries";
import { backoffSeconds, backoffWindowSeconds } from "../../src/queues/backoff";
import {
  batchMessage,
  batchOverheadBytes,
  inlineRecord,
  LOG_RECORDS_DLQ,
  LOG_RECORDS_QUEUE,
  LOG_RECORDS_RETRY,
  parseLogRecordMessage,
} from "../../src/queues/log-records";
import {
  SCORING_CALLS_PER_MESSAGE,
  SCORING_JOBS_DLQ,
  SCORING_JOBS_DLQ_RETRY,
  SCORING_JOBS_QUEUE,
  SCORING_JOBS_RETRY,
  scoringRequestIds,
  scoringRequests,
  scoringRetry,
} from "../../src/queues/scoring-jobs";

/** The queues one worker's config names, by role. */
function queuesOf(id: WorkerConfigRef["id"]) {
  const config = readWorkerConfig(WORKERS.find((w) => w.id === id)!.config);
  const consumers = config.queues?.consumers ?? [];
  return {
    producers: (config.queues?.producers ?? []).map((p) => p.queue),
    consumers: consumers.map((c) => c.queue),
    deadLetters: consumers.flatMap((c) => (c.dead_letter_queue ? [c.dead_letter_queue] : [])),
  };
}

describe("queue names", () => {
  const api = queuesOf("api");
  const scorer = queuesOf("scorer");
  const proxy = queuesOf("proxy");

  it("Should name log-records as the proxy produces it and the API consumes it, with its dead-letter queue", () => {
    expect(proxy.producers).toContain(LOG_RECORDS_QUEUE);
    expect(api.consumers).toContain(LOG_RECORDS_QUEUE);
    expect(api.deadLetters).toContain(LOG_RECORDS_DLQ);
    expect(api.producers).toContain(LOG_RECORDS_DLQ);
  });

  it("Should name scoring-jobs as the API and scorer produce it and the scorer consumes it and its dead-letter queue", () => {
    expect(api.producers).toContain(SCORING_JOBS_QUEUE);
    expect(scorer.producers).toContain(SCORING_JOBS_QUEUE);
    expect(scorer.consumers).toEqual(expect.arrayContaining([SCORING_JOBS_QUEUE, SCORING_JOBS_DLQ]));
    expect(scorer.deadLetters).toContain(SCORING_JOBS_DLQ);
  });

  it("Should name alert-deliveries as the scorer produces and consumes it", () => {
    expect(scorer.producers).toContain(ALERT_DELIVERIES_QUEUE);
    expect(scorer.consumers).toContain(ALERT_DELIVERIES_QUEUE);
  });

  it("Should have a room for every queue a config names", () => {
    const rooms = [LOG_RECORDS_QUEUE, LOG_RECORDS_DLQ, SCORING_JOBS_QUEUE, SCORING_JOBS_DLQ, ALERT_DELIVERIES_QUEUE];
    const named = [api, scorer, proxy].flatMap((w) => [...w.producers, ...w.consumers, ...w.deadLetters]);
    expect([...new Set(named)].sort()).toEqual([...rooms].sort());
  });
});

describe("retry schedules", () => {
  it("Should back log records off from 10 s to at most 3 h, retrying for about 11.4 days over 100 retries", () => {
    expect([1, 2, 3, 11, 12, 100].map((a) => backoffSeconds(a, LOG_RECORDS_RETRY))).toEqual([10, 20, 40, 10240, 10800, 10800]);
    const total = backoffWindowSeconds(101, LOG_RECORDS_RETRY);
    expect(total / 86400).toBeGreaterThan(11);
    expect(total / 86400).toBeLessThan(14); // the queue's retention
  });

  it("Should back scoring jobs off 5 s doubling, capped at 60 s, and 300 s on the dead-letter queue", () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffSeconds(a, SCORING_JOBS_RETRY))).toEqual([5, 10, 20, 40, 60, 60]);
    expect([1, 5, 6, 7].map((a) => backoffSeconds(a, SCORING_JOBS_DLQ_RETRY))).toEqual([5, 80, 160, 300]);
    expect(scoringRetry(SCORING_JOBS_DLQ)).toBe(SCORING_JOBS_DLQ_RETRY);
    expect(scoringRetry(SCORING_JOBS_QUEUE)).toBe(SCORING_JOBS_RETRY);
    expect(backoffWindowSeconds(11, SCORING_JOBS_RETRY)).toBe(435);
  });

  it("Should grow alert retries 4x from the base, capped at 6 hours", () => {
    const schedule = { ...ALERT_DELIVERIES_RETRY, firstSeconds: 10 };
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((a) => backoffSeconds(a, schedule))).toEqual([10, 40, 160, 640, 2560, 10240, 6 * 3600, 6 * 3600]);
  });

  it("Should keep retrying alerts for at least 24 hours with the defaults, inside the Queues delay limit (12 h)", () => {
    const schedule = { ...ALERT_DELIVERIES_RETRY, firstSeconds: ALERT_DEFAULTS.retryBaseSeconds };
    expect(backoffWindowSeconds(ALERT_DEFAULTS.maxAttempts, schedule)).toBeGreaterThanOrEqual(24 * 3600);
    for (let a = 1; a < ALERT_DEFAULTS.maxAttempts; a++) expect(backoffSeconds(a, schedule)).toBeLessThanOrEqual(12 * 3600);
  });

  it("Should count a fraction as its whole part and anything below 1 or not finite as the first attempt", () => {
    expect([2.9, 0, -3, Number.NaN, Number.POSITIVE_INFINITY].map((a) => backoffSeconds(a, LOG_RECORDS_RETRY))).toEqual([20, 10, 10, 10, 10]);
    expect(backoffSeconds(1e9, { firstSeconds: 1, factor: 10, capSeconds: 7 })).toBe(7);
  });
});

describe("scoring messages", () => {
  const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];

  it("Should read the calls of a multi-call message and of the single-call shape of earlier deploys", () => {
    expect(scoringRequestIds({ request_ids: [a, b] })).toEqual([a, b]);
    expect(scoringRequestIds({ request_id: a, project_id: b })).toEqual([a]);
  });

  it("Should read each call's created_at when the message carries them, and leave out times that are not a timestamp per call", () => {
    const at = "2026-11-27 20:43:43.123456+00";
    expect(scoringRequests({ request_ids: [a, b], created_at: [at, null] })).toEqual([
      { id: a, created_at: at },
      { id: b, created_at: null },
    ]);
    expect(scoringRequests({ request_ids: [a], created_at: ["2026-11-27T20:43:43.123Z"] })).toEqual([{ id: a, created_at: "2026-11-27T20:43:43.123Z" }]);
    for (const created_at of [[at], [at, "yesterday"], "2026-11-27", [at, 5]])
      expect(scoringRequests({ request_ids: [a, b], created_at })).toEqual([
        { id: a, created_at: undefined },
        { id: b, created_at: undefined },
      ]);
    expect(scoringRequests({ request_ids: [a] })).toEqual([{ id: a, created_at: undefined }]);
  });

  it("Should refuse an empty, oversized or malformed call list, and anything else", () => {
    const tooMany = Array.from({ length: SCORING_CALLS_PER_MESSAGE + 1 }, () => a);
    for (const body of [{ request_ids: [] }, { request_ids: tooMany }, { request_ids: [a, "x"] }, { request_id: a }, { rescore_job_id: a }, null, "text"])
      expect(scoringRequestIds(body)).toBeUndefined();
  });
});

describe("log-records messages of several records", () => {
  const hash = "ab".repeat(32);
  const records = ["0", "1", "2"].map((n) => inlineRecord(`01a2b3c4-0000-7000-8000-00000000000${n}`, hash, JSON.stringify({ model: `m${n}`, note: "é✓" })));

  it("Should unpack a v2 message into one-record envelopes, in order", () => {
    expect(parseLogRecordMessage(batchMessage(records))).toEqual(records.map((r) => JSON.parse(r.text)));
    expect(parseLogRecordMessage(batchMessage(records.slice(0, 1)))).toEqual([JSON.parse(records[0]!.text)]);
  });

  it("Should count a v2 message's bytes exactly from its entries (the proxy's size check)", () => {
    const bytes = new TextEncoder().encode(batchMessage(records)).byteLength;
    expect(records.reduce((n, r) => n + r.entryBytes, 0) + batchOverheadBytes(records.length)).toBe(bytes);
    expect(records[0]!.bytes).toBe(new TextEncoder().encode(records[0]!.text).byteLength);
  });

  it("Should refuse an empty records list, a 101-record list and a record without its key hash", () => {
    const entry = JSON.parse(records[0]!.entry) as Record<string, unknown>;
    expect(parseLogRecordMessage({ v: 2, records: [] })).toBeUndefined();
    expect(parseLogRecordMessage({ v: 2, records: Array.from({ length: 101 }, () => entry) })).toBeUndefined();
    expect(parseLogRecordMessage({ v: 2, records: [{ ...entry, key_hash: undefined }] })).toBeUndefined();
  });
});
