/** The log record each call produces (a `log-records` queue message, inline or through R2). */
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys";
import { chatBody, directProxy, logsFor, newKey, newRun, openai, post, PROVIDER_KEY, upstreamSaw } from "./helpers";

/** Runs `call` against a direct proxy and returns the single record it logged. */
async function logged(key: string, call: (proxy: ReturnType<typeof directProxy>) => Promise<unknown>) {
  const proxy = directProxy();
  await call(proxy);
  await proxy.settled();
  const records = await logsFor(key);
  expect(records).toHaveLength(1);
  return records[0]!;
}

describe("log record", () => {
  it("Should log a JSON completion with reported tokens and timings, its cost left to the scorer", async () => {
    const key = newKey();
    const log = await logged(key, (p) => openai(key, p.fetch).chat.completions.create(chatBody() as never));
    // The key travels as its SHA-256 only; the record id is a UUIDv7 chosen by the proxy.
    expect(log.message.key_hash).toBe(await hashKey(key));
    expect(JSON.stringify(log)).not.toContain(key);
    expect(log.message.record_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(log.via).toBe("inline");
    expect(log.body).toMatchObject({
      model: "gpt-4o-mini",
      provider: "custom", // the stand-in upstream is a loopback address, not a known provider
      prompt_tokens: 19,
      completion_tokens: 9,
      request_body: chatBody(),
      response_body: { object: "chat.completion", choices: [{ message: { content: "Hello! How can I help you today?" } }] },
      metadata: {
        status: "success",
        http_status: 200,
        stream: false,
        token_count_source: "reported",
        endpoint: "/v1/chat/completions",
      },
    });
    // No cost: the scorer prices the call with its cached tokens (src/pricing/fill-costs.ts).
    expect(log.body).not.toHaveProperty("cost_usd");
    const meta = log.body.metadata as Record<string, number>;
    expect(log.body.latency_ms).toBeGreaterThanOrEqual(meta.ttft_ms!);
    expect(meta.ttft_ms).toBeGreaterThanOrEqual(0);
    expect(meta).toMatchObject({ response_model: "gpt-4o-mini-2024-07-18", upstream_request_id: "req_5b1c2e7f0a9d4c3b8e6f1a2d3c4b5a69" });
    expect(new Date(log.body.created_at as string).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("Should reassemble a stream with include_usage and keep the reported usage", async () => {
    const key = newKey();
    const log = await logged(key, async (p) => {
      const stream = await openai(key, p.fetch, { "x-test-fixture": "chat-stream-usage" }).chat.completions.create({
        ...chatBody(),
        stream: true,
        stream_options: { include_usage: true },
      } as never);
      for await (const _ of stream as unknown as AsyncIterable<unknown>);
    });
    expect(log.body).toMatchObject({
      prompt_tokens: 19,
      completion_tokens: 9,
      response_body: {
        id: "chatcmpl-CeQ2bUs9Wq4Zr1Tv7Ac2Id5Le8Mg",
        object: "chat.completion",
        model: "gpt-4o-mini-2024-07-18",
        system_fingerprint: "fp_34a54ae93c",
        choices: [{ index: 0, message: { role: "assistant", content: "Hello! How can I help you today?" }, finish_reason: "stop" }],
        usage: { prompt_tokens: 19, completion_tokens: 9, total_tokens: 28 },
        event_count: 13, // role + 9 content + finish + usage + [DONE]
      },
      metadata: { stream: true, token_count_source: "reported" },
    });
  });

  it("Should estimate tokens of a stream without usage", async () => {
    const key = newKey();
    const log = await logged(key, async (p) => {
      const res = await post(p.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-fixture": "chat-stream" });
      await res.arrayBuffer();
    });
    expect(log.body).toMatchObject({
      response_body: { choices: [{ message: { content: "Hello! How can I help you today?" }, finish_reason: "stop" }], usage: null, event_count: 12 },
      metadata: { stream: true, token_count_source: "estimated" },
    });
    // o200k_base: "Hello! How can I help you today?" is 9 tokens; the prompt is 2 messages + framing.
    expect(log.body.completion_tokens).toBe(9);
    expect(log.body.prompt_tokens).toBeGreaterThan(10);
    expect(log.body.prompt_tokens).toBeLessThan(40);
  });

  it("Should reassemble streamed tool calls with their arguments concatenated", async () => {
    const key = newKey();
    const log = await logged(key, async (p) => {
      const res = await post(p.fetch, "/v1/chat/completions", key, chatBody({ stream: true, tools: [] }), { "x-test-fixture": "chat-stream-tools" });
      await res.arrayBuffer();
    });
    expect(log.body.response_body).toMatchObject({
      choices: [
        {
          message: {
            role: "assistant",
            content: null,
            tool_calls: [
              {
                id: "call_Jq3rX8v2LmN5pQ7sT1uW4yZa",
                type: "function",
                function: { name: "get_weather", arguments: '{"location":"Paris, France","unit":"celsius"}' },
              },
              { id: "call_Kr4sY9w3MnO6qR8tU2vX5zAb", type: "function", function: { name: "get_time", arguments: '{"tz":"Europe/Paris"}' } },
            ],
          },
          finish_reason: "tool_calls",
        },
      ],
      event_count: 16,
    });
    expect(log.body).toMatchObject({ prompt_tokens: 84, completion_tokens: 47 });
  });

  it("Should keep the Responses API's final response as the body of a streamed call", async () => {
    const key = newKey();
    const log = await logged(key, async (p) => {
      const res = await post(p.fetch, "/v1/responses", key, { model: "gpt-4o-mini", input: "Say hi", stream: true }, { "x-test-fixture": "responses-stream" });
      await res.arrayBuffer();
    });
    expect(log.body).toMatchObject({
      prompt_tokens: 11,
      completion_tokens: 4,
      response_body: { object: "response", status: "completed", output: [{ content: [{ text: "Hi there!" }] }], event_count: 11 },
      metadata: { endpoint: "/v1/responses", token_count_source: "reported" },
    });
  });

  it("Should log embeddings with their usage", async () => {
    const key = newKey();
    const log = await logged(key, (p) =>
      openai(key, p.fetch).embeddings.create({ model: "text-embedding-3-small", input: "hello world", encoding_format: "float" }),
    );
    expect(log.body).toMatchObject({
      model: "text-embedding-3-small",
      prompt_tokens: 5,
      completion_tokens: 0,
      request_body: { model: "text-embedding-3-small", input: "hello world" },
      metadata: { endpoint: "/v1/embeddings", token_count_source: "reported" },
    });
  });

  it("Should forward a request body's exact bytes and log a non-object body as {body} or {raw_text}", async () => {
    // The logged copy is parsed after the response (request.ts); forwarding sends the bytes as sent.
    const cases = [
      { sent: '[{"role":"user","content":"hi"}]', logged: { body: [{ role: "user", content: "hi" }] } },
      { sent: '{"model": "gpt-4o-mini", "messages": [', logged: { raw_text: '{"model": "gpt-4o-mini", "messages": [' } },
      { sent: '{ "model" : "gpt-4o-mini" ,\n "messages": [] }', logged: { model: "gpt-4o-mini", messages: [] } },
    ];
    for (const { sent, logged: expected } of cases) {
      const key = newKey();
      const run = newRun();
      const log = await logged(key, (p) =>
        p
          .fetch("http://proxy.test/v1/chat/completions", {
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${PROVIDER_KEY}`, "X-Service-Key": key, "x-test-run": run },
            body: sent,
          })
          .then((r) => r.arrayBuffer()),
      );
      expect(log.body.request_body).toEqual(expected);
      const [seen] = await upstreamSaw(run);
      expect(seen!.body).toBe(sent);
    }
  });

  it("Should log an unknown model with the model that answered and no cost", async () => {
    const key = newKey();
    const log = await logged(key, (p) =>
      post(p.fetch, "/v1/chat/completions", key, chatBody({ model: "acme-llm-7b" }), { "x-test-model": "acme-llm-7b-0425" }).then((r) => r.arrayBuffer()),
    );
    expect(log.body).toMatchObject({
      model: "acme-llm-7b",
      prompt_tokens: 19,
      metadata: { response_model: "acme-llm-7b-0425" },
    });
    expect(log.body).not.toHaveProperty("cost_usd");
  });

  it("Should store X-Sightline-Session-Id as metadata.session_id and never forward it upstream", async () => {
    const key = newKey();
    const run = newRun();
    const headers = { "X-Sightline-Session-Id": " conv-42 ", "x-test-run": run };
    const log = await logged(key, (p) => openai(key, p.fetch, headers).chat.completions.create(chatBody() as never));
    expect(log.body.metadata).toMatchObject({ session_id: "conv-42" });
    const [seen] = await upstreamSaw(run);
    expect(seen!.headers["x-sightline-session-id"]).toBeUndefined();
    expect(seen!.headers["x-test-run"]).toBe(run);
  });

  it("Should log a call without the header with no session_id", async () => {
    const key = newKey();
    const log = await logged(key, (p) => openai(key, p.fetch).chat.completions.create(chatBody() as never));
    expect(log.body.metadata).not.toHaveProperty("session_id");
  });

  it("Should never store the provider key, the Sightline key or cookies", async () => {
    const key = newKey();
    // The key also appears inside the prompt: it is scrubbed from the body as well.
    const body = chatBody({ messages: [{ role: "user", content: `my keys are ${PROVIDER_KEY} and ${key}` }] });
    const log = await logged(key, (p) =>
      post(p.fetch, "/v1/chat/completions", key, body, { Cookie: "session=cookie-secret-value", "api-key": "azure-secret-key-42" }).then((r) =>
        r.arrayBuffer(),
      ),
    );
    const stored = JSON.stringify(log.body);
    for (const secret of [PROVIDER_KEY, key, "cookie-secret-value", "azure-secret-key-42"]) expect(stored).not.toContain(secret);
    expect(stored).not.toMatch(/authorization|x-service-key|cookie/i);
    expect(stored).toContain("my keys are [REDACTED] and [REDACTED]");
  });

  it("Should redact keys used as JSON object keys and credential headers the upstream echoes", async () => {
    const key = newKey();
    const anthropicKey = "sk-ant-api03-echoed-secret-0123456789";
    const geminiKey = "AIzaSy-echoed-gemini-key-0123456789";
    // Keys as property names, at the top level and nested, in the request body.
    const body = { ...chatBody(), [PROVIDER_KEY]: "as a property name", metadata: { [key]: 1, nested: { [`k-${anthropicKey}`]: true } } };
    const log = await logged(key, (p) =>
      post(p.fetch, "/v1/chat/completions", key, body, { "x-test-echo-headers": "1", "x-api-key": anthropicKey, "x-goog-api-key": geminiKey }).then((r) =>
        r.arrayBuffer(),
      ),
    );
    const stored = JSON.stringify(log.body);
    for (const secret of [PROVIDER_KEY, key, anthropicKey, geminiKey]) expect(stored).not.toContain(secret);
    const request = log.body.request_body as Record<string, unknown>;
    expect(request["[REDACTED]"]).toBe("as a property name");
    expect(request.metadata).toEqual({ "[REDACTED]": 1, nested: { "k-[REDACTED]": true } });
    // The echoed headers are stored with their values redacted.
    const echoed = (log.body.response_body as { echo: { headers: Record<string, string> } }).echo.headers;
    expect(echoed).toMatchObject({ "x-api-key": "[REDACTED]", "x-goog-api-key": "[REDACTED]", authorization: "Bearer [REDACTED]" });
  });

  it("Should log a client abort mid-stream with the partial text, and close the upstream", async () => {
    const key = newKey();
    const run = newRun();
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), {
      "x-test-fixture": "chat-stream",
      "x-test-gate": crypto.randomUUID(), // never released: the upstream stalls after the first event
      "x-test-run": run,
    });
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toContain('"role":"assistant"');
    await reader.cancel("user pressed stop");
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body).toMatchObject({
      response_body: { choices: [{ message: { content: "" }, finish_reason: null }], event_count: 1 },
      metadata: { status: "success", aborted: true, stream: true, token_count_source: "estimated" },
    });
    await new Promise((r) => setTimeout(r, 100));
    const [seen] = await upstreamSaw(run);
    expect(seen!.closedEarly).toBe(true);
  });

  it("Should stop the SDK's stream on abort and still log what arrived", async () => {
    const key = newKey();
    const proxy = directProxy();
    const stream = await openai(key, proxy.fetch, { "x-test-fixture": "chat-stream", "x-test-pace-ms": "20" }).chat.completions.create({
      ...chatBody(),
      stream: true,
    } as never);
    let text = "";
    for await (const chunk of stream as unknown as AsyncIterable<{ choices: { delta: { content?: string } }[] }>) {
      text += chunk.choices[0]?.delta.content ?? "";
      if (text.length >= 6) break; // "Hello!"
    }
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body.metadata).toMatchObject({ aborted: true });
    const content = (log!.body.response_body as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
    expect(content.startsWith("Hello!")).toBe(true);
    expect(content.length).toBeLessThan("Hello! How can I help you today?".length);
  });

  it("Should capture a multi-MB stream exactly: the stored completion is the text the client received", async () => {
    const key = newKey();
    let wireBytes = 0;
    let streamed = "";
    const log = await logged(key, async (p) => {
      // 15,000 events of 30 UTF-16 units (1- to 4-byte characters, escapes): 3.4 MB on the wire,
      // sent at once, so the proxy reads it in bulk with boundaries inside characters.
      const res = await post(p.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), {
        "x-test-big-stream": "15000x30",
        "x-test-big-stream-text": "unicode",
      });
      const raw = new Uint8Array(await res.arrayBuffer());
      wireBytes = raw.byteLength;
      for (const event of new TextDecoder().decode(raw).split("\n\n"))
        if (event.startsWith("data: {"))
          streamed += (JSON.parse(event.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "";
    });
    expect(wireBytes).toBeGreaterThan(3_000_000);
    expect(streamed.length).toBe(448_500); // 30 units each, 29 where the 30th would split a surrogate pair
    expect(log.via).toBe("r2");
    expect(log.body.metadata).toMatchObject({ stream: true, status: "success" });
    expect(log.body.metadata).not.toHaveProperty("truncated");
    const body = log.body.response_body as { event_count: number; choices: { message: { content: string }; finish_reason: string }[] };
    expect(body.event_count).toBe(15_003); // role + 15,000 content + finish + [DONE]
    expect(body.choices[0]!.finish_reason).toBe("length");
    const stored = body.choices[0]!.message.content;
    expect(stored.length).toBe(streamed.length);
    expect(stored === streamed).toBe(true); // compared whole, not printed: 448,500 characters
  });

  it("Should cap a large streamed body at 1.5 MB and send it through R2", async () => {
    const key = newKey();
    const log = await logged(key, async (p) => {
      const res = await post(p.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-big-stream": "400x8000" });
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(3_200_000);
    });
    expect(log.bytes).toBeLessThan(1_500_000);
    expect(log.bytes).toBeGreaterThan(128_000);
    expect(log.via).toBe("r2");
    expect(log.message).toEqual({ v: 1, record_id: expect.any(String), key_hash: await hashKey(key), payload: `records/${log.message.record_id}.json` });
    expect(log.body.metadata).toMatchObject({ truncated: true, stream: true });
    const body = log.body.response_body as { event_count: number; choices: { message: { content: string }; finish_reason: string }[] };
    expect(body.event_count).toBe(403);
    expect(body.choices[0]!.finish_reason).toBe("length");
    const content = body.choices[0]!.message.content;
    expect(content.length).toBeLessThan(400 * 8000);
    expect(content.startsWith("0".repeat(8000) + "1".repeat(8000))).toBe(true);
  });
});

describe("records sharing a queue message (LOG_BATCH_WINDOW_MS)", () => {
  /** Runs `n` chat calls at once through one proxy (one isolate) and returns their records. */
  async function concurrent(key: string, n: number, overrides: Record<string, string> = {}, headersOf: (i: number) => Record<string, string> = () => ({})) {
    const proxy = directProxy(overrides);
    const responses = await Promise.all(
      Array.from({ length: n }, (_, i) => post(proxy.fetch, "/v1/chat/completions", key, chatBody({ user: `u${i}` }), headersOf(i))),
    );
    for (const res of responses) {
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    await proxy.settled();
    const records = await logsFor(key, n);
    expect(records).toHaveLength(n);
    expect(new Set(records.map((r) => r.message.record_id)).size).toBe(n);
    return records;
  }

  it("Should send the records of calls ending together in fewer messages, each record once", async () => {
    const key = newKey();
    const records = await concurrent(key, 12);
    const messages = new Set(records.map((r) => r.message_id));
    expect(messages.size).toBeLessThan(12);
    expect(Math.max(...records.map((r) => r.batched))).toBeGreaterThan(1);
    // Each record arrives whole: its own user, its own key hash.
    expect(records.map((r) => (r.body.request_body as { user: string }).user).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `u${i}`).sort());
    for (const r of records) expect(r.message.key_hash).toBe(await hashKey(key));
  });

  it("Should send each record alone when the window is 0", async () => {
    const key = newKey();
    const records = await concurrent(key, 5, { LOG_BATCH_WINDOW_MS: "0" });
    expect(records.map((r) => r.batched)).toEqual([1, 1, 1, 1, 1]);
    expect(new Set(records.map((r) => r.message_id)).size).toBe(5);
  });

  it("Should send a record too large for a message alone through R2 while its neighbours share one", async () => {
    const key = newKey();
    const records = await concurrent(key, 4, {}, (i): Record<string, string> => (i === 0 ? { "x-test-big-stream": "40x8000" } : {}));
    const big = records.filter((r) => r.via === "r2");
    expect(big).toHaveLength(1);
    expect(big[0]!.batched).toBe(1);
    expect(records.filter((r) => r.via === "inline").every((r) => r.bytes < 120_000)).toBe(true);
  });
});
