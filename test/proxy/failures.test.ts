/** Upstream errors reach the client as given; logging failures never reach it at all. */
import { describe, expect, it } from "vitest";
import { bytesOf, chatBody, directProxy, fixtureBytes, logsFor, newKey, openai, post, testEnv } from "./helpers";

describe("upstream errors", () => {
  it.each([
    ["error-429", 429, "rate_limit_exceeded"],
    ["error-400", 400, "context_length_exceeded"],
  ])("Should pass %s through byte for byte and log it as an error", async (fixture, status, code) => {
    const key = newKey();
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "x-test-fixture": fixture });
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await bytesOf(res)).toEqual(await fixtureBytes(fixture));
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body).toMatchObject({
      prompt_tokens: 0,
      completion_tokens: 0,
      cost_usd: 0,
      metadata: { status: "error", http_status: status, error: { code }, token_count_source: "none" },
    });
  });

  it("Should surface the upstream's error through the SDK", async () => {
    const key = newKey();
    const proxy = directProxy();
    const err = await openai(key, proxy.fetch, { "x-test-fixture": "error-429" })
      .chat.completions.create(chatBody() as never)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: "rate_limit_exceeded" });
  });

  it("Should answer 502 {detail} when the upstream is unreachable, and log it", async () => {
    const key = newKey();
    const proxy = directProxy({ UPSTREAM_BASE_URL: testEnv.TEST_CLOSED_URL });
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ detail: expect.stringContaining("could not be reached") });
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body).toMatchObject({ response_body: null, metadata: { status: "error", http_status: 502, error: { type: "upstream_unreachable" } } });
  });

  it("Should answer 502 {detail} when a JSON answer breaks off before its Content-Length, and log it", async () => {
    const key = newKey();
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "x-test-truncate": "1" });
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ detail: expect.stringContaining("before it was complete") });
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body).toMatchObject({ metadata: { status: "error" } });
  });

  it("Should answer 502 {detail} when the upstream sends no headers in time", async () => {
    const key = newKey();
    const proxy = directProxy({ UPSTREAM_TIMEOUT_MS: "200" });
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "x-test-hang": "1" });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/within 200 ms/);
    await proxy.settled();
    expect((await logsFor(key))[0]!.body.metadata).toMatchObject({ error: { type: "upstream_timeout" } });
  });
});

describe("logging failures", () => {
  const refuse = () => Promise.reject(new Error("Queue send failed: service unavailable"));
  it.each([
    ["the queue refuses the message", () => ({ LOG_QUEUE: { send: refuse, sendBatch: refuse } as unknown as Queue })],
    ["the queue binding is missing", () => ({ LOG_QUEUE: undefined as unknown as Queue })],
  ])("Should not change the client's response when %s", async (_, overrides) => {
    const key = newKey();
    const proxy = directProxy(overrides());
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const json = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
      expect(json.status).toBe(200);
      expect(await bytesOf(json)).toEqual(await fixtureBytes("chat-completion"));
      const sse = await post(proxy.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-fixture": "chat-stream" });
      expect(await bytesOf(sse)).toEqual(await fixtureBytes("chat-stream"));
      await proxy.settled();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(2);
    for (const line of errors) {
      expect(JSON.parse(line)).toMatchObject({ msg: "log record could not be queued", model: "gpt-4o-mini", record_id: expect.any(String) });
      expect(line).not.toContain(key);
    }
  });

  it("Should not change the client's response when R2 refuses a large record", async () => {
    const key = newKey();
    const proxy = directProxy({ LOG_PAYLOADS: { put: refuse } as unknown as R2Bucket });
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: string) => errors.push(line);
    try {
      const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-big-stream": "40x8000" });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(320_000);
      await proxy.settled();
    } finally {
      console.error = original;
    }
    expect(errors.map((l) => JSON.parse(l) as { msg: string })).toEqual([expect.objectContaining({ msg: "log record could not be queued" })]);
    expect(await logsFor(key, 1, 300)).toHaveLength(0);
  });
});
