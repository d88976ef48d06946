/** Pass-through: what the application receives is what the upstream sent. */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { bytesOf, chatBody, directProxy, fixtureBytes, logsFor, newKey, newRun, openai, post, PROVIDER_KEY, release, upstreamSaw } from "./helpers";

const selfFetch = (input: string | URL | Request, init?: RequestInit) => SELF.fetch(input, init);

describe("pass-through", () => {
  it("Should return a JSON completion byte for byte, with status and content-type", async () => {
    const key = newKey();
    const res = await post(selfFetch, "/v1/chat/completions", key, chatBody(), { "x-test-fixture": "chat-completion" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-request-id")).toBe("req_5b1c2e7f0a9d4c3b8e6f1a2d3c4b5a69");
    const expected = await fixtureBytes("chat-completion");
    expect(res.headers.get("content-length")).toBe(String(expected.byteLength));
    expect(await bytesOf(res)).toEqual(expected);
  });

  it("Should return an SSE stream byte for byte", async () => {
    const key = newKey();
    const res = await post(selfFetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-fixture": "chat-stream-usage" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(await bytesOf(res)).toEqual(await fixtureBytes("chat-stream-usage"));
  });

  it("Should forward method, path, query, body and provider Authorization, but not X-Service-Key", async () => {
    const key = newKey();
    const run = newRun();
    const body = chatBody({ temperature: 0.2 });
    const res = await post(selfFetch, "/v1/chat/completions?trace=1&x=%20y", key, body, { "x-test-run": run, "OpenAI-Organization": "org-123" });
    await res.arrayBuffer();
    const [seen] = await upstreamSaw(run);
    expect(seen).toMatchObject({ method: "POST", url: "/v1/chat/completions?trace=1&x=%20y", body: JSON.stringify(body) });
    expect(seen!.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
    expect(seen!.headers["openai-organization"]).toBe("org-123");
    expect(seen!.headers["x-service-key"]).toBeUndefined();
    expect(JSON.stringify(seen!.headers)).not.toContain(key);
  });

  it("Should deliver the first chunk before the upstream finishes the stream", async () => {
    const key = newKey();
    const gate = crypto.randomUUID();
    const client = openai(key, selfFetch, { "x-test-fixture": "chat-stream", "x-test-gate": gate });
    const stream = await client.chat.completions.create({ ...chatBody(), stream: true } as never);
    const it = (stream as unknown as AsyncIterable<{ choices: { delta: { content?: string } }[] }>)[Symbol.asyncIterator]();
    const first = await it.next(); // the upstream is holding every later event until release()
    expect(first.value.choices[0].delta).toMatchObject({ role: "assistant", content: "" });
    await release(gate);
    let text = "";
    for (let next = await it.next(); !next.done; next = await it.next()) text += next.value.choices[0]?.delta.content ?? "";
    expect(text).toBe("Hello! How can I help you today?");
    const [log] = await logsFor(key);
    expect(log!.body.metadata).toMatchObject({ stream: true, status: "success" });
  });

  it("Should pass a gzip-encoded JSON body through and still log it decoded", async () => {
    const key = newKey();
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "x-test-gzip": "1", "Accept-Encoding": "gzip" });
    expect(res.headers.get("content-encoding")).toBe("gzip");
    expect(res.headers.get("content-length")).toBeNull(); // the runtime re-encodes and frames it
    expect(await bytesOf(res)).toEqual(await fixtureBytes("chat-completion"));
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body.response_body).toMatchObject({ id: "chatcmpl-CeQ1zX4nZbq1vJ7mR2tK9aPw3sLdE" });
  });

  it("Should pass GET /v1/models through without logging it", async () => {
    const key = newKey();
    const run = newRun();
    const proxy = directProxy();
    const res = await proxy.fetch("http://proxy.test/v1/models", { headers: { "X-Service-Key": key, "x-test-run": run, "x-test-fixture": "embeddings" } });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await proxy.settled();
    expect(await upstreamSaw(run)).toHaveLength(1);
    expect(await logsFor(key, 1, 300)).toHaveLength(0);
  });
});

describe("Sightline key", () => {
  it("Should not authorize - missing X-Service-Key, and send nothing upstream", async () => {
    const run = newRun();
    const res = await SELF.fetch("http://proxy.test/v1/chat/completions", {
      method: "POST",
      headers: { Authorization: `Bearer ${PROVIDER_KEY}`, "Content-Type": "application/json", "x-test-run": run },
      body: JSON.stringify(chatBody()),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ detail: expect.stringContaining("X-Service-Key") });
    expect(await upstreamSaw(run)).toHaveLength(0);
  });

  it("Should not authorize - a Sightline key in Authorization is not enough", async () => {
    const run = newRun();
    const res = await SELF.fetch("http://proxy.test/v1/chat/completions", {
      method: "POST",
      headers: { Authorization: `Bearer ${newKey()}`, "x-test-run": run },
      body: JSON.stringify(chatBody()),
    });
    expect(res.status).toBe(401);
    expect(await upstreamSaw(run)).toHaveLength(0);
  });

  it("Should not authorize - malformed key", async () => {
    const res = await post(selfFetch, "/v1/chat/completions", "slk_nothex", chatBody());
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/not a Sightline API key/);
  });
});
