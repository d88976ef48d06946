/**
 * POST /v1/traces inside workerd against the test PostgreSQL: OTLP/JSON, protobuf and gzip
 * bodies become logged calls; other spans are dropped; a retried export stores nothing twice;
 * malformed bodies 400, unknown keys 401, over quota 429 with Retry-After, too large 413.
 */
import { describe, expect, it } from "vitest";
import { api, expectProblem, newProject, sql } from "./helpers";
import { chatSpan, exportRequest, gzip, jsonSpan, randomHex, toProtobuf } from "./otlp-helpers";

/** vitest.config.ts: the free tier's limit. */
const FREE_LIMIT = 50;

function postJson(key: string, body: unknown, headers: Record<string, string> = {}) {
  return api("/v1/traces", { method: "POST", headers: { "Content-Type": "application/json", "X-Service-Key": key, ...headers }, body: JSON.stringify(body) });
}

function postProto(key: string, bytes: Uint8Array, headers: Record<string, string> = {}) {
  return api("/v1/traces", { method: "POST", headers: { "Content-Type": "application/x-protobuf", Authorization: `Bearer ${key}`, ...headers }, body: bytes });
}

async function rows(projectId: string) {
  return (await sql(
    "SELECT model, provider, prompt_tokens, completion_tokens, latency_ms, request_body, response_body, metadata FROM llm_requests WHERE project_id = $1 ORDER BY created_at",
    [projectId],
  )) as {
    model: string;
    provider: string;
    prompt_tokens: number;
    completion_tokens: number;
    latency_ms: number;
    request_body: { messages: { role: string; content: string }[] };
    response_body: { choices: unknown[] };
    metadata: Record<string, unknown>;
  }[];
}

describe("POST /v1/traces (OTLP/HTTP)", () => {
  it("Should store a GenAI chat span from OTLP/JSON as a call and drop the other spans", async () => {
    const { key, projectId } = await newProject();
    const traceId = randomHex(16);
    const chat = chatSpan({ traceId });
    const res = await postJson(key, exportRequest([chat, jsonSpan("GET /health", { "http.request.method": "GET" }, { traceId })]));
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect(await res.json()).toEqual({});

    const stored = await rows(projectId);
    expect(stored).toHaveLength(1);
    const call = stored[0]!;
    expect(call).toMatchObject({ model: "gpt-4o-mini-2024-07-18", provider: "openai", prompt_tokens: 11, completion_tokens: 7, latency_ms: 420 });
    expect(call.request_body.messages).toEqual([{ role: "user", content: "What is the capital of France?" }]);
    expect(call.response_body.choices[0]).toEqual({ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" });
    expect(call.metadata).toMatchObject({
      status: "success",
      session_id: "conv-1",
      otel: { trace_id: traceId, span_id: chat.spanId, convention: "gen_ai", service_name: "otlp-test" },
    });

    const listed = await api("/api/requests", { headers: { "X-Service-Key": key } });
    const page = (await listed.json()) as { items: { model: string; provider: string }[] };
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({ model: "gpt-4o-mini-2024-07-18", provider: "openai" });
  });

  it("Should take binary protobuf, gzip-compressed or not, with Authorization: Bearer, and answer in protobuf", async () => {
    const { key, projectId } = await newProject();
    const plain = await postProto(key, toProtobuf(exportRequest([chatSpan()])));
    expect(plain.status).toBe(200);
    expect(plain.headers.get("Content-Type")).toBe("application/x-protobuf");
    expect((await plain.arrayBuffer()).byteLength).toBe(0);
    const zipped = await postProto(key, await gzip(toProtobuf(exportRequest([chatSpan()]))), { "Content-Encoding": "gzip" });
    expect(zipped.status).toBe(200);
    const zippedJson = await postJson(key, exportRequest([chatSpan()]), {});
    expect(zippedJson.status).toBe(200);
    const stored = await rows(projectId);
    expect(stored).toHaveLength(3);
    for (const call of stored) expect(call.request_body.messages[0]!.content).toBe("What is the capital of France?");
  });

  it("Should store a retried export once and count it once against the quota", async () => {
    const { key, projectId } = await newProject();
    const body = toProtobuf(exportRequest([chatSpan(), chatSpan()]));
    for (let i = 0; i < 3; i++) expect((await postProto(key, body)).status).toBe(200);
    expect(await rows(projectId)).toHaveLength(2);
    const [sub] = await sql("SELECT requests_this_period FROM subscriptions WHERE project_id = $1", [projectId]);
    expect(Number(sub!.requests_this_period)).toBe(2);
  });

  it("Should keep the same span of two projects apart", async () => {
    const a = await newProject();
    const b = await newProject();
    const body = exportRequest([chatSpan({ traceId: randomHex(16), spanId: randomHex(8) })]);
    expect((await postJson(a.key, body)).status).toBe(200);
    expect((await postJson(b.key, body)).status).toBe(200);
    expect(await rows(a.projectId)).toHaveLength(1);
    expect(await rows(b.projectId)).toHaveLength(1);
  });

  it("Should report malformed spans as a partial success and store the rest", async () => {
    const { key, projectId } = await newProject();
    const bad = { ...chatSpan(), traceId: "abc" };
    const res = await postJson(key, exportRequest([chatSpan(), bad]));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { partialSuccess: { rejectedSpans: string; errorMessage: string } };
    expect(body.partialSuccess.rejectedSpans).toBe("1");
    expect(body.partialSuccess.errorMessage).toContain("traceId");
    expect(await rows(projectId)).toHaveLength(1);

    const proto = await postProto(key, toProtobuf(exportRequest([{ ...chatSpan(), spanId: "00" }])));
    expect(proto.status).toBe(200);
    expect((await proto.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("Should answer 400 {detail} for a body that is no OTLP export", async () => {
    const { key } = await newProject();
    await expectProblem(
      await api("/v1/traces", { method: "POST", headers: { "Content-Type": "application/json", "X-Service-Key": key }, body: "{not json" }),
      400,
      "malformed JSON",
    );
    await expectProblem(await postJson(key, { resourceSpans: "nope" }), 400, "resourceSpans");
    await expectProblem(await postProto(key, new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0x0f, 0x01])), 400, "protobuf");
    await expectProblem(await postProto(key, new Uint8Array([1, 2, 3]), { "Content-Encoding": "gzip" }), 400, "gzip");
  });

  it("Should answer 401 for a missing or unknown key and 415 for another media type", async () => {
    const body = exportRequest([chatSpan()]);
    await expectProblem(
      await api("/v1/traces", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) }),
      401,
      "missing API key",
    );
    await expectProblem(await postJson(`slk_${"0".repeat(48)}`, body), 401, "invalid API key");
    const { key } = await newProject();
    await expectProblem(
      await api("/v1/traces", { method: "POST", headers: { "Content-Type": "text/plain", "X-Service-Key": key }, body: "x" }),
      415,
      "Content-Type",
    );
  });

  it("Should answer 429 with Retry-After over the monthly limit and store nothing more", async () => {
    const { key, projectId } = await newProject();
    await sql("UPDATE subscriptions SET requests_this_period = $2 WHERE project_id = $1", [projectId, FREE_LIMIT - 1]);
    const res = await postJson(key, exportRequest([chatSpan(), chatSpan()]));
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/monthly request limit/);
    expect(await rows(projectId)).toHaveLength(1);
  });

  it("Should answer 413 when the body passes the limit, on the wire or decompressed", async () => {
    const { key } = await newProject();
    // vitest.config.ts: LOG_MAX_BYTES is 1 MiB; 2 MiB of zeros compress to a few KB.
    const bomb = await gzip(new Uint8Array(2 * 1024 * 1024));
    await expectProblem(await postProto(key, bomb, { "Content-Encoding": "gzip" }), 413, "after decompression");
    await expectProblem(await postProto(key, new Uint8Array(1024 * 1024 + 1)), 413, "larger than the limit");
  });
});
