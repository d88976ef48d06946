/**
 * Bodies in R2 (issue 34.1, docs/capture.md "Bodies in R2"): bodies over INLINE_BODY_BYTES are written
 * gzip to the BODIES bucket before their rows, one object per (batch, project), and read back
 * byte for byte through src/bodies/ by the detail, the export and the scorer; small bodies stay
 * inline; masking applies before the write; an R2 write failure retries the batch and loses and
 * duplicates nothing.
 */
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { INLINE_BODY_BYTES } from "../../src/bodies/codec";
import { bodyText } from "../../src/bodies/write";
import type { StoredBodies } from "../../src/bodies/columns";
import { readSegmentTexts } from "../../src/bodies/read";
import { bigAnswer } from "../proxy/big-answers";
import { apiEnv, BODY_COLUMNS, consume, eventually, message, rowsOf, scoreNow, throughProxy } from "./capture-helpers";
import { api, logBody, newProject, postLog, sql } from "./helpers";

/** Word `i` of a long turn: `word` and `i` in letters (a preview drops words holding digits). */
const word = (i: number) => `word${i.toString(26).replace(/[0-9]/g, (d) => "qrstuvwxyz"[Number(d)]!)}`;

/** A chat request whose user turn is `words` words long (about 7 bytes each). */
const chat = (words: number, extra = "") => ({
  model: "gpt-4o-mini",
  messages: [{ role: "user", content: `${extra}${Array.from({ length: words }, (_, i) => word(i)).join(" ")}` }],
});

/** The row of `id` as stored: its body columns. */
async function storedRow(id: string): Promise<StoredBodies & { preview: string | null }> {
  const [row] = await sql<StoredBodies & { preview: string | null }>(`SELECT ${BODY_COLUMNS}, preview FROM llm_requests WHERE id = $1`, [id]);
  return row!;
}

/** The exact JSON texts R2 holds for a row's request and response bodies (null when inline). */
async function r2Texts(row: StoredBodies): Promise<{ request: string | null; response: string | null }> {
  const segments = [
    row.request_body_length === null ? null : { offset: row.request_body_offset!, length: row.request_body_length },
    row.response_body_length === null ? null : { offset: row.response_body_offset!, length: row.response_body_length },
  ];
  const texts = await readSegmentTexts(
    apiEnv.BODIES,
    row.body_key!,
    segments.filter((s) => s !== null),
  );
  return {
    request: segments[0] ? texts.get(segments[0].offset)! : null,
    response: segments[1] ? texts.get(segments[1].offset)! : null,
  };
}

/** The detail of a request (GET /api/requests/{id}). */
async function detail(key: string, id: string): Promise<{ request_body: unknown; response_body: unknown; preview: string | null }> {
  const res = await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } });
  expect(res.status).toBe(200);
  return res.json();
}

/** Keys of the objects of a project in the bucket. */
async function objectsOf(projectId: string): Promise<string[]> {
  return (await apiEnv.BODIES.list({ prefix: `${projectId}/` })).objects.map((o) => o.key);
}

describe("bodies in R2", () => {
  it("Should keep small bodies inline and put large ones in R2, byte for byte, readable by the detail", async () => {
    const { key, projectId } = await newProject();
    const small = logBody();
    const large = logBody({
      request_body: chat(400),
      response_body: { choices: [{ message: { role: "assistant", content: "é✓ ".repeat(500) }, finish_reason: "stop" }] },
    });
    const ids: string[] = [];
    for (const body of [small, large]) {
      const res = await postLog(key, body);
      expect(res.status).toBe(202);
      ids.push(((await res.json()) as { id: string }).id);
    }
    const inline = await storedRow(ids[0]!);
    expect(inline.body_key).toBeNull();
    expect(inline.request_body).toEqual(small.request_body);

    const row = await storedRow(ids[1]!);
    expect(new TextEncoder().encode(bodyText(large.request_body)).byteLength).toBeGreaterThan(INLINE_BODY_BYTES);
    expect(row.body_key).toMatch(new RegExp(`^${projectId}/`));
    expect(row.request_body).toBeNull();
    expect(row.response_body).toBeNull();
    // Byte for byte: R2 holds exactly the JSON text of what was logged.
    expect(await r2Texts(row)).toEqual({ request: bodyText(large.request_body), response: bodyText(large.response_body) });
    // The preview and the search document were computed from the body before it left the row.
    expect(row.preview).toMatch(new RegExp(`^${word(0)} ${word(1)} ${word(2)} `));
    const found = await api(`/api/requests?q=${word(399)}`, { headers: { "X-Service-Key": key } });
    expect(((await found.json()) as { items: { id: string }[] }).items.map((r) => r.id)).toEqual([ids[1]]);
    const read = await detail(key, ids[1]!);
    expect(JSON.stringify(read.request_body)).toBe(bodyText(large.request_body));
    expect(JSON.stringify(read.response_body)).toBe(bodyText(large.response_body));
    // The object is tracked and marked referenced.
    const [tracked] = await sql<{ project_id: string; newest: boolean }>(
      "SELECT project_id, newest_created_at IS NOT NULL AS newest FROM body_objects WHERE key = $1",
      [row.body_key],
    );
    expect(tracked).toEqual({ project_id: projectId, newest: true });
    // The scorer reads the bodies through the same module.
    expect(await scoreNow(ids[1]!, projectId)).toHaveLength(6);
  });

  it("Should round-trip the 150k-word call byte for byte", async () => {
    const { key } = await newProject();
    const body = logBody({ response_body: { choices: [{ message: { role: "assistant", content: bigAnswer("words") }, finish_reason: "stop" }] } });
    const res = await postLog(key, body);
    const { id } = (await res.json()) as { id: string };
    const row = await storedRow(id);
    expect(row.request_body).toEqual(body.request_body); // small: inline
    expect(row.response_body_length).toBeLessThan(bodyText(body.response_body).length); // gzip
    expect((await r2Texts(row)).response).toBe(bodyText(body.response_body));
    expect(JSON.stringify((await detail(key, id)).response_body)).toBe(bodyText(body.response_body));
  });

  it("Should round-trip a streamed (SSE) call through the proxy, the queue and the consumer", async () => {
    const { key, projectId } = await newProject();
    const res = await throughProxy(
      key,
      { model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "Count." }] },
      { "x-test-big-stream": "8x500", "x-test-big-stream-text": "unicode" },
    );
    expect(res.status).toBe(200);
    const [call] = await eventually(async () => ((await rowsOf(projectId)).length > 0 ? rowsOf(projectId) : undefined));
    const row = await storedRow(call!.id);
    expect(row.body_key).not.toBeNull();
    const texts = await r2Texts(row);
    expect(texts.response).toBe(JSON.stringify(call!.response_body));
    expect((call!.response_body as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toHaveLength(8 * 500);
    expect(JSON.stringify((await detail(key, call!.id)).response_body)).toBe(texts.response);
  });

  it("Should mask a masking project's bodies before they reach R2", async () => {
    const { key } = await newProject();
    const policy = await api("/api/policy", { method: "PUT", headers: { "X-Service-Key": key }, json: { store_pii: "mask" } });
    expect(policy.status).toBe(200);
    const body = logBody({ request_body: chat(300, "Mail jane.doe@example.com about it. ") });
    const { id } = (await (await postLog(key, body)).json()) as { id: string };
    const row = await storedRow(id);
    const { request } = await r2Texts(row);
    expect(request).not.toContain("jane.doe@example.com");
    expect(request).toContain("[EMAIL]");
    expect(JSON.stringify((await detail(key, id)).request_body)).toBe(request);
  });

  it("Should write one object per project for a consumer batch, each body its own range", async () => {
    const a = await newProject();
    const b = await newProject();
    const messages = [
      await message(a.key, logBody({ request_body: chat(300, "a1 ") })),
      await message(b.key, logBody({ request_body: chat(300, "b1 ") })),
      await message(a.key, logBody({ request_body: chat(300, "a2 ") })),
      await message(a.key, logBody()),
    ];
    const result = await consume(messages.map((m) => m.body));
    expect(result.explicitAcks.sort()).toEqual(["m0", "m1", "m2", "m3"]);
    expect(await objectsOf(a.projectId)).toHaveLength(1);
    expect(await objectsOf(b.projectId)).toHaveLength(1);
    const rows = await rowsOf(a.projectId);
    expect(rows.map((r) => (r.request_body as { messages: { content: string }[] }).messages[0]!.content.slice(0, 3)).sort()).toEqual(["Say", "a1 ", "a2 "]);
  });

  it("Should retry a batch whose R2 write fails, store nothing, then store it once on redelivery", async () => {
    const { key, projectId } = await newProject();
    const messages = [await message(key, logBody({ request_body: chat(300) })), await message(key, logBody({ request_body: chat(310) }))];
    const failing = {
      ...apiEnv,
      BODIES: {
        put: () => Promise.reject(new Error("R2 put failed: simulated outage")),
        get: apiEnv.BODIES.get.bind(apiEnv.BODIES),
        delete: apiEnv.BODIES.delete.bind(apiEnv.BODIES),
      },
    };
    const first = await consume(
      messages.map((m) => m.body),
      failing as unknown as typeof apiEnv,
    );
    expect(first.retryMessages.map((m) => m.msgId).sort()).toEqual(["m0", "m1"]);
    expect(first.explicitAcks).toEqual([]);
    expect(await rowsOf(projectId)).toEqual([]);
    expect(await objectsOf(projectId)).toEqual([]);

    const again = await consume(
      messages.map((m) => m.body),
      apiEnv,
      2,
    );
    expect(again.explicitAcks.sort()).toEqual(["m0", "m1"]);
    const rows = await rowsOf(projectId);
    expect(rows.map((r) => r.id).sort()).toEqual(messages.map((m) => m.recordId).sort());
    expect(await objectsOf(projectId)).toHaveLength(1);
    // A third delivery (a lost ack) writes no object and no row.
    await consume(
      messages.map((m) => m.body),
      apiEnv,
      3,
    );
    expect(await rowsOf(projectId)).toHaveLength(2);
    expect(await objectsOf(projectId)).toHaveLength(1);
  });

  it("Should answer 503 and store nothing when POST /internal/log cannot write its bodies", async () => {
    const { key, projectId } = await newProject();
    const { withEnv } = await import("./helpers");
    const res = await withEnv({ BODIES: { put: () => Promise.reject(new Error("R2 down")), get: () => null, delete: async () => {} } }, "/internal/log", {
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(logBody({ request_body: chat(300), metadata: { trace: uuidv7() } })),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/body storage/);
    expect(await rowsOf(projectId)).toEqual([]);
  });
});
