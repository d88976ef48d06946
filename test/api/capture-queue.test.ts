/**
 * Durable capture: the proxy queues a record (log-records, R2 for large ones), the API worker's
 * consumer stores it with the key check and quota of POST /internal/log, once per record id.
 * The end-to-end cases run the real proxy handler against the upstream stand-in and the real
 * Miniflare queue that delivers to this worker's `queue` handler; the others hand the consumer
 * a batch directly, so the test sees exactly which messages were acked and which retried.
 */
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys";
import type { AppEnv } from "../../workers/api/src/env";
import { SCORER_NAMES } from "../../src/enums";
import { apiEnv, consume, deadLetters, eventually, message, refuseModelsByName, rowsOf, scoreNow, throughProxy, usedOf, withJobs } from "./capture-helpers";
import { logBody, newProject, sql } from "./helpers";

// vitest.config.ts lowers the free tier's limit to 50 through TIER_LIMITS.
const FREE_LIMIT = 50;

describe("proxy -> log-records -> llm_requests", () => {
  it("Should store a proxied call once, count it, and score it with all six scorers", async () => {
    const { key, projectId } = await newProject();
    const res = await throughProxy(key, { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hello." }] });
    expect(res.status).toBe(200);
    const [row] = await eventually(async () => ((await rowsOf(projectId)).length > 0 ? rowsOf(projectId) : undefined));
    expect(row).toMatchObject({ model: "gpt-4o-mini", scoring_state: "queued", metadata: { status: "success", http_status: 200 } });
    expect(row!.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7/); // the proxy's UUIDv7
    expect(await usedOf(projectId)).toBe(1);

    // The scorer consumes the job the ingest consumer enqueued (scoring-jobs has no consumer here).
    expect(await scoreNow(row!.id, projectId)).toEqual([...SCORER_NAMES].sort());
  });

  it("Should carry a record over 128 KB through R2 and delete the object once stored", async () => {
    const { key, projectId } = await newProject();
    // 40 content events of 8,000 characters: a ~330 KB record, over the queue's message limit.
    const res = await throughProxy(
      key,
      { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Count." }] },
      { "x-test-big-stream": "40x8000" },
    );
    expect(res.status).toBe(200);
    const [row] = await eventually(async () => ((await rowsOf(projectId)).length > 0 ? rowsOf(projectId) : undefined));
    const content = (row!.response_body as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
    expect(content).toHaveLength(40 * 8000);
    expect(row!.metadata.truncated).toBeUndefined();
    await eventually(async () => ((await apiEnv.LOG_PAYLOADS.get(`records/${row!.id}.json`)) === null ? true : undefined));
    expect(await usedOf(projectId)).toBe(1);
  });
});

describe("log-records consumer, several records per message (v2)", () => {
  /** A v2 message holding the records of `parts` (one-record messages from `message`). */
  const batchOf = (parts: { body: string }[]) =>
    JSON.stringify({ v: 2, records: parts.map((p) => (({ v: _v, ...entry }) => entry)(JSON.parse(p.body) as Record<string, unknown>)) });

  it("Should store every record of a message once, count each, and enqueue their scoring jobs", async () => {
    const a = await newProject();
    const b = await newProject();
    const parts = [await message(a.key), await message(b.key), await message(a.key)];
    const first = withJobs();
    expect((await consume([batchOf(parts)], first.env)).explicitAcks).toEqual(["m0"]);
    expect([...first.jobs].sort()).toEqual(parts.map((p) => p.recordId).sort());
    expect(await usedOf(a.projectId)).toBe(2);
    expect(await usedOf(b.projectId)).toBe(1);
    // Redelivered whole: nothing stored or counted twice.
    expect((await consume([batchOf(parts)], apiEnv, 2)).explicitAcks).toEqual(["m0"]);
    expect((await rowsOf(a.projectId)).map((r) => r.id).sort()).toEqual([parts[0]!.recordId, parts[2]!.recordId].sort());
    expect(await usedOf(a.projectId)).toBe(2);
  });

  it("Should retry the whole message while the database is down, then store each record once", async () => {
    const { key, projectId } = await newProject();
    const parts = [await message(key), await message(key)];
    const down = { ...apiEnv, HYPERDRIVE: { connectionString: "postgres://postgres:postgres@127.0.0.1:1/none" } } as unknown as AppEnv;
    const failed = await consume([batchOf(parts)], down, 3);
    expect(failed.explicitAcks).toEqual([]);
    expect(failed.retryMessages).toEqual([{ msgId: "m0" }]);
    expect(failed.delays).toEqual([40]);
    expect((await consume([batchOf(parts)], apiEnv, 4)).explicitAcks).toEqual(["m0"]);
    expect(await rowsOf(projectId)).toHaveLength(2);
    expect(await usedOf(projectId)).toBe(2);
  });

  it("Should dead-letter only the refused record, alone as a one-record message, and ack the message", async () => {
    const { key, projectId } = await newProject();
    await refuseModelsByName();
    const good = await message(key);
    const poison = await message(key, logBody({ model: "db-refuses-22008-batched" }));
    const result = await consume([batchOf([good, poison])]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect((await rowsOf(projectId)).map((r) => r.id)).toEqual([good.recordId]);
    const letters = await eventually(async () => ((await deadLetters(key)).length > 0 ? deadLetters(key) : undefined));
    expect(letters.map((l) => [l.message.record_id, (l.message as { v?: number }).v, l.record.model])).toEqual([
      [poison.recordId, 1, "db-refuses-22008-batched"],
    ]);
  });

  it("Should drop a message whose records list is malformed, and keep the well-formed messages of the batch", async () => {
    const { key, projectId } = await newProject();
    const good = await message(key);
    const tooMany = JSON.stringify({ v: 2, records: [] });
    const result = await consume([tooMany, batchOf([good])]);
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1"]);
    expect((await rowsOf(projectId)).map((r) => r.id)).toEqual([good.recordId]);
  });
});

describe("log-records consumer", () => {
  it("Should store one row, count once and enqueue its scoring job when a message is delivered twice", async () => {
    const { key, projectId } = await newProject();
    const m = await message(key);
    const first = withJobs();
    expect((await consume([m.body], first.env)).explicitAcks).toEqual(["m0"]);
    expect(first.jobs).toEqual([m.recordId]);
    // Redelivery (e.g. the ack was lost), and the same record twice inside one batch.
    const again = withJobs();
    const result = await consume([m.body, m.body], again.env, 2);
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1"]);
    expect(result.retryMessages).toEqual([]);
    expect((await rowsOf(projectId)).map((r) => r.id)).toEqual([m.recordId]);
    expect(await usedOf(projectId)).toBe(1);
    // The job is sent again, in case the first delivery stored the row but never enqueued it (once, however often the batch holds it).
    // With the stored row's created_at, so the scorer reads only its month (docs/storage.md).
    const [row] = await sql<{ at: string }>("SELECT created_at::text AS at FROM llm_requests WHERE id = $1", [m.recordId]);
    expect(again.messages).toEqual([{ request_ids: [m.recordId], created_at: [row!.at] }]);
  });

  it("Should store one row and count once when the consumer crashes after the statement", async () => {
    const { key, projectId } = await newProject();
    const a = await message(key);
    const b = await message(key);
    const crashed = await consume([a.body, b.body], withJobs(true).env);
    expect(crashed.explicitAcks).toEqual([]);
    expect(crashed.retryMessages.map((r) => r.msgId).sort()).toEqual(["m0", "m1"]);
    expect(await rowsOf(projectId)).toHaveLength(2);

    const redelivered = withJobs();
    const result = await consume([a.body, b.body], redelivered.env, 2);
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1"]);
    expect((await rowsOf(projectId)).map((r) => r.id).sort()).toEqual([a.recordId, b.recordId].sort());
    expect(await usedOf(projectId)).toBe(2);
    // One scoring message for the batch, naming both calls.
    expect(redelivered.messages).toHaveLength(1);
    expect([...redelivered.jobs].sort()).toEqual([a.recordId, b.recordId].sort());
  });

  it("Should count a batch of several projects at and over their limits exactly", async () => {
    const nearly = await newProject(); // 48 of 50 used: 2 of 5 fit
    const full = await newProject(); // 50 of 50: none of 2 fit
    const fresh = await newProject(); // 0 used: all 3 fit
    const pro = await newProject(); // a paid tier with room
    await sql("UPDATE subscriptions SET requests_this_period = 48 WHERE project_id = $1", [nearly.projectId]);
    await sql("UPDATE subscriptions SET requests_this_period = $2 WHERE project_id = $1", [full.projectId, FREE_LIMIT]);
    await sql("UPDATE subscriptions SET tier = 'pro', requests_this_period = 60 WHERE project_id = $1", [pro.projectId]);
    const bodies: string[] = [];
    for (const [p, n] of [
      [nearly, 5],
      [full, 2],
      [fresh, 3],
      [pro, 4],
    ] as const)
      for (let i = 0; i < n; i++) bodies.push((await message(p.key)).body);
    bodies.reverse(); // interleave the projects' order in the batch
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (line: string) => warnings.push(line);
    let result: Awaited<ReturnType<typeof consume>>;
    try {
      result = await consume(bodies);
    } finally {
      console.warn = original;
    }
    expect(result.explicitAcks).toHaveLength(bodies.length); // over-quota records are acked, not retried
    expect(result.retryMessages).toEqual([]);
    expect(await rowsOf(nearly.projectId)).toHaveLength(2);
    expect(await usedOf(nearly.projectId)).toBe(FREE_LIMIT);
    expect(await rowsOf(full.projectId)).toHaveLength(0);
    expect(await usedOf(full.projectId)).toBe(FREE_LIMIT);
    expect(await rowsOf(fresh.projectId)).toHaveLength(3);
    expect(await usedOf(fresh.projectId)).toBe(3);
    expect(await rowsOf(pro.projectId)).toHaveLength(4);
    expect(await usedOf(pro.projectId)).toBe(64);
    const dropped = warnings
      .map((l) => JSON.parse(l) as { msg: string; project_id?: string; count?: number })
      .filter((w) => w.msg.includes("over the monthly limit"));
    expect(dropped).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ project_id: nearly.projectId, count: 3 }),
        expect.objectContaining({ project_id: full.projectId, count: 2 }),
      ]),
    );
  });

  it("Should never go one over the limit when batches of one project are consumed concurrently", async () => {
    const { key, projectId } = await newProject();
    const batches = await Promise.all(Array.from({ length: 4 }, () => Promise.all(Array.from({ length: 20 }, () => message(key).then((m) => m.body)))));
    const results = await Promise.all(batches.map((b) => consume(b)));
    for (const r of results) expect(r.explicitAcks).toHaveLength(20);
    expect(await rowsOf(projectId)).toHaveLength(FREE_LIMIT);
    expect(await usedOf(projectId)).toBe(FREE_LIMIT);
  });

  it("Should ack and drop records with an unknown or revoked key, without logging key material", async () => {
    const { key, projectId, keyId } = await newProject();
    await sql("UPDATE api_keys SET revoked_at = now() WHERE id = $1", [keyId]);
    const unknownKey = `slk_${"ab".repeat(24)}`;
    const revoked = await message(key);
    const unknown = await message(unknownKey);
    const warnings: string[] = [];
    const original = console.warn;
    console.warn = (line: string) => warnings.push(line);
    let result: Awaited<ReturnType<typeof consume>>;
    try {
      result = await consume([revoked.body, unknown.body]);
    } finally {
      console.warn = original;
    }
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1"]);
    expect(await rowsOf(projectId)).toHaveLength(0);
    expect(await usedOf(projectId)).toBe(0);
    expect(warnings.map((l) => JSON.parse(l))).toContainEqual(
      expect.objectContaining({ msg: expect.stringContaining("unknown, revoked or expired key"), count: 2 }),
    );
    for (const line of warnings) {
      expect(line).not.toContain(key);
      expect(line).not.toContain(await hashKey(key));
    }
  });

  it("Should retry the batch with exponential backoff while the database is unreachable", async () => {
    const { key, projectId } = await newProject();
    const m = await message(key);
    const down = { ...apiEnv, HYPERDRIVE: { connectionString: "postgres://postgres:postgres@127.0.0.1:1/none" } } as unknown as AppEnv;
    const first = await consume([m.body], down, 1);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toEqual([{ msgId: "m0" }]);
    expect(first.delays).toEqual([10]);
    const later = await consume([m.body], down, 6);
    expect(later.retryMessages).toEqual([{ msgId: "m0" }]);
    expect(later.delays).toEqual([320]);
    expect(await rowsOf(projectId)).toHaveLength(0);
    // Back up: the same message is stored once.
    expect((await consume([m.body], apiEnv, 7)).explicitAcks).toEqual(["m0"]);
    expect(await rowsOf(projectId)).toHaveLength(1);
  });

  it("Should dead-letter only the record the database cannot store and keep the rest of the batch", async () => {
    const { key, projectId } = await newProject();
    const good = await message(key);
    // A valid record that PostgreSQL refuses (a data exception, SQLSTATE 22008, by the test trigger).
    await refuseModelsByName();
    const poison = await message(key, logBody({ model: "db-refuses-22008-queued" }));
    const nul = await message(key, logBody({ model: "gpt\u0000x", metadata: { "k\u0000": "\ud800" } }));
    const result = await consume([good.body, poison.body, nul.body, "not json", JSON.stringify({ v: 9 })]);
    expect([...result.explicitAcks].sort()).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    const rows = await rowsOf(projectId);
    expect(rows.map((r) => r.id).sort()).toEqual([good.recordId, nul.recordId].sort());
    // The rule of src/ingest/input.ts, as on POST /internal/log: replaced and counted.
    expect(rows.find((r) => r.id === nul.recordId)).toMatchObject({ model: "gpt\uFFFDx", metadata: { "k\uFFFD": "\uFFFD", text_replaced: 3 } });
    expect(await usedOf(projectId)).toBe(2);
    // The refused record is kept, unchanged, in log-records-dlq; the malformed envelopes carry nothing to keep.
    const letters = await eventually(async () => ((await deadLetters(key)).length > 0 ? deadLetters(key) : undefined));
    expect(letters.map((l) => l.message.record_id)).toEqual([poison.recordId]);
  });
});
