import { describe, expect, it } from "vitest";
import { api, logBody, newProject, postLog, sql, expectProblem } from "./helpers";

describe("POST /internal/log", () => {
  it("Should store the call and answer 202 with its id", async () => {
    const { key, projectId } = await newProject();
    const res = await postLog(key, logBody({ metadata: { trace: "t1" } }));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/); // UUIDv7
    const [row] = await sql("SELECT * FROM llm_requests WHERE id = $1", [id]);
    expect(row).toMatchObject({
      project_id: projectId,
      model: "gpt-4o-mini",
      provider: "openai",
      prompt_tokens: 12,
      completion_tokens: 5,
      latency_ms: 321,
      metadata: { trace: "t1" },
      scoring_state: "queued",
    });
    expect(Number(row!.cost_usd)).toBeCloseTo(0.0000123, 10);
    expect(row!.request_body).toEqual(logBody().request_body);
    const [sub] = await sql("SELECT requests_this_period FROM subscriptions WHERE project_id = $1", [projectId]);
    expect(Number(sub!.requests_this_period)).toBe(1);
  });

  it("Should accept the key as Authorization: Bearer", async () => {
    const { key } = await newProject();
    const res = await api("/internal/log", { method: "POST", headers: { Authorization: `Bearer ${key}` }, json: logBody() });
    expect(res.status).toBe(202);
  });

  it("Should keep a client-supplied created_at and default optional fields", async () => {
    const { key } = await newProject();
    const res = await postLog(key, {
      model: "claude-x",
      provider: "anthropic",
      request_body: { messages: [] },
      created_at: "2026-01-02T03:04:05.678Z",
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const [row] = await sql("SELECT created_at, response_body, prompt_tokens, metadata FROM llm_requests WHERE id = $1", [id]);
    expect((row!.created_at as Date).toISOString()).toBe("2026-01-02T03:04:05.678Z");
    expect(row).toMatchObject({ response_body: null, prompt_tokens: 0, metadata: {} });
  });

  it("Should store NUL characters as U+FFFD instead of failing", async () => {
    const { key } = await newProject();
    const res = await postLog(key, logBody({ response_body: { text: "a\u0000b" } }));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const [row] = await sql("SELECT response_body FROM llm_requests WHERE id = $1", [id]);
    expect(row!.response_body).toEqual({ text: "a\uFFFDb" });
  });

  it("Should not authorize - missing key", async () => {
    const res = await api("/internal/log", { method: "POST", json: logBody() });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: expect.stringContaining("missing API key") });
  });

  it("Should not authorize - unknown key", async () => {
    const res = await postLog("slk_" + "ab".repeat(24));
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toBe("invalid API key");
  });

  it("Should not authorize - malformed key", async () => {
    const res = await postLog("sk-not-ours");
    expect(res.status).toBe(401);
  });

  it("Should answer 400 on malformed JSON", async () => {
    const { key } = await newProject();
    const res = await api("/internal/log", {
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: '{"model": "x",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ detail: "malformed JSON in request body" });
  });

  it.each([
    [{ model: "" }, "model"],
    [{ prompt_tokens: -1 }, "prompt_tokens"],
    [{ prompt_tokens: 1.5 }, "prompt_tokens"],
    [{ cost_usd: "free" }, "cost_usd"],
    [{ request_body: "not an object" }, "request_body"],
    [{ created_at: "yesterday" }, "created_at"],
    [{ metadata: [1, 2] }, "metadata"],
  ])("Should answer 422 naming the field for %j", async (override, field) => {
    const { key } = await newProject();
    const res = await postLog(key, logBody(override));
    await expectProblem(res, 422, field);
  });

  it("Should answer 422 when a required field is missing", async () => {
    const { key } = await newProject();
    const { provider: _p, ...body } = logBody();
    const res = await postLog(key, body);
    await expectProblem(res, 422, "provider");
  });

  it("Should refuse a created_at in the future", async () => {
    const { key } = await newProject();
    const res = await postLog(key, logBody({ created_at: new Date(Date.now() + 3_600_000).toISOString() }));
    expect(res.status).toBe(422);
  });

  it("Should answer 413 above LOG_MAX_BYTES and store nothing", async () => {
    const { key, projectId } = await newProject();
    const big = "x".repeat(1024 * 1024 + 10); // test limit is 1 MiB
    const res = await postLog(key, logBody({ response_body: { text: big } }));
    await expectProblem(res, 413, "larger than the limit");
    const rows = await sql("SELECT id FROM llm_requests WHERE project_id = $1", [projectId]);
    expect(rows).toHaveLength(0);
  });

  it("Should accept a body just under the limit", async () => {
    const { key } = await newProject();
    const res = await postLog(key, logBody({ response_body: { text: "y".repeat(1000 * 1000) } }));
    expect(res.status).toBe(202);
  });
});
