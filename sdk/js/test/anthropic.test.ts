import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { flush, stats, wrapAnthropic } from "../src/index.js";
import { flushedLogs, useStandIns } from "./support/lifecycle.js";

const servers = useStandIns();

const client = () => wrapAnthropic(new Anthropic({ apiKey: "sk-ant-test", baseURL: servers.upstream.url, maxRetries: 0 }));
const params = { model: "claude-3-5-haiku-latest", max_tokens: 64, messages: [{ role: "user" as const, content: "Hello" }] };

describe("wrapAnthropic: messages.create", () => {
  it("Should return the SDK's message unchanged and log it with usage", async () => {
    const c = client();
    const message = await c.messages.create(params);
    expect(message.content[0]).toEqual({ type: "text", text: "Hello! How can I help you today?" });
    expect(message.constructor).toBe(Object);
    expect(await flush({ timeoutMs: 5000 })).toBe(true);
    const [log] = servers.api.logs();
    expect(log).toMatchObject({
      model: "claude-3-5-haiku-latest",
      provider: "anthropic",
      prompt_tokens: 15,
      completion_tokens: 10,
      request_body: params,
      response_body: { id: "msg_01XFDUDYJgAACzvnptvVoYEL", stop_reason: "end_turn" },
      metadata: { status: "success", stream: false, token_count_source: "reported", sdk: "sightline-js/0.1.0" },
    });
    // No price list in the library: the cost is left out (unknown), never sent as 0; Sightline prices it.
    expect(log).not.toHaveProperty("cost_usd");
    expect(log.metadata).not.toHaveProperty("cost_source");
    expect(Date.parse(log.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(servers.api.received[0]?.headers["x-service-key"]).toBe("slk_test");
  });

  it("Should keep APIPromise helpers working (.withResponse)", async () => {
    const c = client();
    const { data, response, request_id } = await c.messages.create(params).withResponse();
    expect(data.id).toBe("msg_01XFDUDYJgAACzvnptvVoYEL");
    expect(response.status).toBe(200);
    expect(request_id).toBe("req_standin_1");
    expect(await flushedLogs(servers)).toHaveLength(1);
  });

  it("Should snapshot the request: later mutation of messages is not logged", async () => {
    const c = client();
    const messages: { role: "user" | "assistant"; content: string }[] = [{ role: "user", content: "first" }];
    const pending = c.messages.create({ ...params, messages });
    messages.push({ role: "assistant", content: "mutated later" });
    await pending;
    expect((await flushedLogs(servers))[0].request_body.messages).toEqual([{ role: "user", content: "first" }]);
  });

  it("Should re-throw the provider error untouched and log a failed call", async () => {
    const c = client();
    let caught: unknown;
    const promise = c.messages.create({ ...params, model: "error-429" });
    try {
      await promise;
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(APIError);
    expect((caught as APIError).status).toBe(429);
    // the same object every time the application awaits the same promise
    await expect(promise).rejects.toBe(caught);
    const [log] = await flushedLogs(servers);
    expect(log.model).toBe("error-429");
    expect(log.response_body).toBeNull();
    expect(log.metadata.status).toBe("error");
    expect(log.metadata.error.type).toBe("RateLimitError");
    expect(log.metadata.error.message).toContain("rate limit");
  });

  it("Should wrap idempotently and keep `this`", async () => {
    const c = client();
    const create = c.messages.create;
    wrapAnthropic(c);
    expect(c.messages.create).toBe(create);
    await c.messages.create(params);
    expect(await flushedLogs(servers)).toHaveLength(1);
  });
});

describe("wrapAnthropic: streaming", () => {
  it("Should hand the SDK's Stream through (for await, controller) and log the reassembled message", async () => {
    const c = client();
    const stream = await c.messages.create({ ...params, stream: true });
    expect(stream.controller).toBeInstanceOf(AbortController);
    const types: string[] = [];
    let text = "";
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === "content_block_delta" && event.delta.type === "text_delta") text += event.delta.text;
    }
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    expect(text).toBe("Hello, world!");
    const [log] = await flushedLogs(servers);
    expect(log).toMatchObject({
      provider: "anthropic",
      prompt_tokens: 25,
      completion_tokens: 15,
      response_body: { id: "msg_014p7gG3wDgGV9EUtLvnow3U", content: [{ type: "text", text: "Hello, world!" }], stop_reason: "end_turn", event_count: 8 },
      metadata: { status: "success", stream: true, token_count_source: "reported" },
    });
    expect(typeof log.metadata.ttft_ms).toBe("number");
    expect(log.metadata.stream_completed).toBeUndefined();
  });

  it("Should log an early break as stream_completed false", async () => {
    const c = client();
    const stream = await c.messages.create({ ...params, stream: true });
    for await (const event of stream) if (event.type === "content_block_delta") break;
    const [log] = await flushedLogs(servers);
    expect(log.metadata.stream_completed).toBe(false);
    expect(log.response_body.event_count).toBe(3);
  });

  it("Should log the messages.stream() helper once, on its final message", async () => {
    const c = client();
    const stream = c.messages.stream(params);
    const chunks: string[] = [];
    stream.on("text", (t) => chunks.push(t));
    const final = await stream.finalMessage();
    expect(chunks.join("")).toBe("Hello, world!");
    expect(final.content[0]).toMatchObject({ type: "text", text: "Hello, world!" });
    const logs = await flushedLogs(servers);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      provider: "anthropic",
      prompt_tokens: 25,
      completion_tokens: 15,
      response_body: { content: [{ type: "text", text: "Hello, world!" }], event_count: 8 },
      metadata: { stream: true, stream_helper: true, status: "success" },
    });
  });

  it("Should support for await over the helper's events", async () => {
    const c = client();
    let n = 0;
    for await (const _ of c.messages.stream(params)) n++;
    expect(n).toBe(8);
    expect(await flushedLogs(servers)).toHaveLength(1);
  });

  it("Should log a failed helper stream with the error", async () => {
    const c = client();
    const stream = c.messages.stream({ ...params, model: "error-400" });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(APIError);
    const [log] = await flushedLogs(servers);
    expect(log.metadata.status).toBe("error");
    expect(log.metadata.error.type).toBe("BadRequestError");
    expect(stats().sent).toBe(1);
  });
});
