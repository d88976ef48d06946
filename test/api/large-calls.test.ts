/**
 * Issue 26.1: the full-text index never decides whether a call is kept. Calls whose answer holds
 * 150,000 distinct words or numbers (test/proxy/big-answers.ts; 1.8-2.1 MB of tsvector when the
 * whole text was indexed, over PostgreSQL's 1 MiB limit) are stored whole and scored, through
 * POST /internal/log and through the capture proxy (JSON and SSE, real queue, R2 and consumer);
 * `q` finds words in the indexed part (SEARCH_INDEXED_CHARS of each body). And a proxied
 * record the database refuses for its data always lands in the dead-letter queue
 * `log-records-dlq`, or is retried when that queue cannot take it: never acked unseen.
 */
import { uuidv7 } from "uuidv7";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "../../workers/api/src/env";
import { SEARCH_INDEXED_CHARS } from "../../src/db/schema";
import { SCORER_NAMES } from "../../src/enums";
import { bigAnswer, type BigAnswerKind } from "../proxy/big-answers";
import type { StoredBodies } from "../../src/bodies/columns";
import { readBodies } from "../../src/bodies/read";
import { apiEnv, BODY_COLUMNS, consume, deadLetters, eventually, message, refuseModelsByName, rowsOf, scoreNow, throughProxy, usedOf } from "./capture-helpers";
import { api, logBody, newProject, postLog, sql } from "./helpers";

const KINDS: BigAnswerKind[] = ["words", "numbers"];
const ALL_SCORERS = [...SCORER_NAMES].sort();

/** The stored answer text and the size of its JSON, read back through src/bodies/ (R2 for a body this large). */
async function storedAnswer(id: string): Promise<{ content: string; bytes: number; truncated: unknown }> {
  const rows = await sql<StoredBodies & { metadata: Record<string, unknown> }>(`SELECT ${BODY_COLUMNS}, metadata FROM llm_requests WHERE id = $1`, [id]);
  const [row] = await readBodies(apiEnv.BODIES, rows);
  const answer = row!.response_body as { choices?: { message?: { content?: string } }[] };
  return {
    content: answer.choices?.[0]?.message?.content ?? "",
    bytes: new TextEncoder().encode(JSON.stringify(row!.response_body)).byteLength,
    truncated: row!.metadata.truncated ?? null,
  };
}

/** Ids found by the dashboard/API text search `q` in a project. */
async function search(key: string, q: string): Promise<string[]> {
  const res = await api(`/api/requests?q=${encodeURIComponent(q)}`, { headers: { "X-Service-Key": key } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: { id: string }[] }).items.map((r) => r.id);
}

/** First and last token of a big answer, and the first token past the indexed part. */
function tokens(kind: BigAnswerKind): { first: string; last: string } {
  const parts = bigAnswer(kind).split(kind === "words" ? " " : ",");
  return { first: parts[0]!, last: parts.at(-1)! };
}

describe("calls with 150k distinct tokens", () => {
  for (const kind of KINDS) {
    it(`Should store a POST /internal/log call of 150k distinct ${kind} whole, score it, and search its indexed part`, async () => {
      const { key, projectId } = await newProject();
      const text = bigAnswer(kind);
      const res = await postLog(key, logBody({ response_body: { choices: [{ message: { role: "assistant", content: text }, finish_reason: "stop" }] } }));
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as { id: string };
      const stored = await storedAnswer(id);
      expect(stored.content).toBe(text);
      expect(stored.bytes).toBeGreaterThan(text.length);
      expect(await scoreNow(id, projectId)).toEqual(ALL_SCORERS);
      // A word at the start of the answer is found; the last one lies past the first
      // SEARCH_INDEXED_CHARS characters and is not (the documented bound).
      const { first, last } = tokens(kind);
      expect(text.indexOf(last)).toBeGreaterThan(SEARCH_INDEXED_CHARS);
      expect(await search(key, first)).toEqual([id]);
      expect(await search(key, last)).toEqual([]);
    });

    for (const stream of [false, true]) {
      it(`Should store a proxied ${stream ? "SSE" : "JSON"} answer of 150k distinct ${kind} whole, through R2, and score it`, async () => {
        const { key, projectId } = await newProject();
        const res = await throughProxy(
          key,
          { model: "gpt-4o-mini", stream, messages: [{ role: "user", content: `List 150000 ${kind}.` }] },
          { "x-test-big-answer": kind },
        );
        expect(res.status).toBe(200);
        const [row] = await eventually(async () => ((await rowsOf(projectId)).length > 0 ? rowsOf(projectId) : undefined), 20_000);
        const stored = await storedAnswer(row!.id);
        expect(stored.content).toBe(bigAnswer(kind));
        expect(stored.truncated).toBeNull();
        expect(await usedOf(projectId)).toBe(1);
        expect(await scoreNow(row!.id, projectId)).toEqual(ALL_SCORERS);
        expect(await deadLetters(key)).toEqual([]);
      });
    }
  }
});

beforeAll(refuseModelsByName);

describe("POST /internal/log and a value the database refuses", () => {
  it("Should answer 422 {detail}, not 500, and store and count nothing", async () => {
    const { key, projectId } = await newProject();
    // Refusals of class 22 (data exception, e.g. a datetime out of range) and of class 54.
    for (const body of [logBody({ model: "db-refuses-22008-direct" }), logBody({ model: "db-refuses-54000-direct" })]) {
      const res = await postLog(key, body);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^the record holds a value the database cannot store \(SQLSTATE (22008|54000)\)$/);
    }
    expect(await rowsOf(projectId)).toEqual([]);
    expect(await usedOf(projectId)).toBe(0);
  });
});

describe("a proxied record the database refuses", () => {
  it("Should land in log-records-dlq with its R2 payload, through the real proxy and queues", async () => {
    const { key, projectId } = await newProject();
    const model = `db-refuses-54000-${uuidv7()}`;
    const res = await throughProxy(key, { model, messages: [{ role: "user", content: "List words." }] }, { "x-test-big-answer": "words" });
    expect(res.status).toBe(200);
    const [letter] = await eventually(async () => ((await deadLetters(key)).length > 0 ? deadLetters(key) : undefined), 20_000);
    // Over 128 KB, so the message points at R2; the object is kept for a replay.
    expect(letter!.via).toBe("r2");
    expect(letter!.record).toMatchObject({ model, response_body: { choices: [{ message: { content: bigAnswer("words") } }] } });
    expect(await rowsOf(projectId)).toEqual([]);
    expect(await usedOf(projectId)).toBe(0);
  });

  it("Should dead-letter every data error class (22, 23, 42, 54) and retry, never ack, when the dead-letter queue fails", async () => {
    for (const state of ["22023", "23514", "42P10", "54000"]) {
      const { key, projectId } = await newProject();
      const refused = await message(key, logBody({ model: `db-refuses-${state}-x` }));
      const good = await message(key);
      const result = await consume([refused.body, good.body]);
      expect([...result.explicitAcks].sort()).toEqual(["m0", "m1"]);
      expect((await rowsOf(projectId)).map((r) => r.id)).toEqual([good.recordId]);
      const letters = await eventually(async () => ((await deadLetters(key)).length > 0 ? deadLetters(key) : undefined));
      expect(letters.map((l) => l.message.record_id)).toEqual([refused.recordId]);

      // The dead-letter queue unavailable: the refused message is retried, not acked.
      const failing = { ...apiEnv, LOG_DEAD_LETTERS: { send: () => Promise.reject(new Error("queue unavailable")) } } as unknown as AppEnv;
      const again = await message(key, logBody({ model: `db-refuses-${state}-y` }));
      const retried = await consume([again.body], failing);
      expect(retried.explicitAcks).toEqual([]);
      expect(retried.retryMessages.map((m) => m.msgId)).toEqual(["m0"]);
    }
  });
});
