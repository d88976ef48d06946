import { CohereClient, CohereClientV2, CohereError } from "cohere-ai";
import { describe, expect, it } from "vitest";
import { wrapCohere } from "../src/index.js";
import { flushedLogs, useStandIns } from "./support/lifecycle.js";

const servers = useStandIns();

const v1 = () => wrapCohere(new CohereClient({ token: "co-test", environment: servers.upstream.url, maxRetries: 0 }));
const v2 = () => wrapCohere(new CohereClientV2({ token: "co-test", environment: servers.upstream.url, maxRetries: 0 }));

describe("wrapCohere: v1 CohereClient", () => {
  it("Should return the chat response unchanged and log it in wire form with billed units", async () => {
    const res = await v1().chat({ model: "command-r-plus", message: "What is an LLM?", maxTokens: 100 });
    expect(res.text).toBe("LLMs are neural networks trained on large text corpora.");
    expect(res.finishReason).toBe("COMPLETE");
    const [log] = await flushedLogs(servers);
    expect(log).toMatchObject({
      model: "command-r-plus",
      provider: "cohere",
      prompt_tokens: 6,
      completion_tokens: 11,
      request_body: { model: "command-r-plus", message: "What is an LLM?", max_tokens: 100 },
      response_body: {
        text: "LLMs are neural networks trained on large text corpora.",
        finish_reason: "COMPLETE",
        meta: { billed_units: { input_tokens: 6 } },
      },
      metadata: { status: "success", stream: false, token_count_source: "reported" },
    });
  });

  it("Should keep .withRawResponse() working", async () => {
    const { data, rawResponse } = await v1().chat({ message: "hi" }).withRawResponse();
    expect(data.text).toContain("LLMs");
    expect(rawResponse.status).toBe(200);
    expect((await flushedLogs(servers))[0].model).toBe("unknown");
  });

  it("Should pass chatStream events through and log the reassembled text", async () => {
    const stream = await v1().chatStream({ model: "command-r-plus", message: "Say it streams" });
    const kinds: string[] = [];
    let text = "";
    for await (const event of stream) {
      kinds.push(event.eventType);
      if (event.eventType === "text-generation") text += event.text;
    }
    expect(kinds).toEqual(["stream-start", "text-generation", "text-generation", "text-generation", "stream-end"]);
    expect(text).toBe("Streaming works.");
    const [log] = await flushedLogs(servers);
    expect(log).toMatchObject({
      prompt_tokens: 4,
      completion_tokens: 3,
      response_body: { text: "Streaming works.", finish_reason: "COMPLETE", event_count: 5 },
      metadata: { stream: true, status: "success" },
    });
    expect(typeof log.metadata.ttft_ms).toBe("number");
  });

  it("Should re-throw provider errors untouched and log them", async () => {
    let caught: unknown;
    try {
      await v1().chat({ model: "error-400", message: "" });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CohereError);
    const [log] = await flushedLogs(servers);
    expect(log.metadata.status).toBe("error");
    expect(log.metadata.error.type).toBe("BadRequestError");
  });

  it("Should also wrap client.v2", async () => {
    const client = v1();
    const res = await client.v2.chat({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hello" }] });
    expect(res.message.content?.[0]).toMatchObject({ text: "Hello from Command A." });
    expect((await flushedLogs(servers))[0]).toMatchObject({ model: "command-a-03-2025", prompt_tokens: 5, completion_tokens: 5 });
  });
});

describe("wrapCohere: CohereClientV2", () => {
  it("Should log chat with usage.billed_units", async () => {
    const res = await v2().chat({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hello" }], maxTokens: 50 });
    expect(res.finishReason).toBe("COMPLETE");
    expect((await flushedLogs(servers))[0]).toMatchObject({
      provider: "cohere",
      prompt_tokens: 5,
      completion_tokens: 5,
      request_body: { messages: [{ role: "user", content: "Hello" }], max_tokens: 50 },
      response_body: { message: { content: [{ type: "text", text: "Hello from Command A." }] }, usage: { billed_units: { output_tokens: 5 } } },
    });
  });

  it("Should pass the v2 SSE stream through and log the reassembled message", async () => {
    const stream = await v2().chatStream({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hi" }] });
    const kinds: string[] = [];
    for await (const event of stream) kinds.push(event.type);
    expect(kinds).toEqual(["message-start", "content-start", "content-delta", "content-delta", "content-end", "message-end"]);
    expect((await flushedLogs(servers))[0]).toMatchObject({
      prompt_tokens: 3,
      completion_tokens: 2,
      response_body: {
        id: "29f14a5a-11de-4cae-9800-25e4747408ea",
        finish_reason: "COMPLETE",
        message: { content: [{ type: "text", text: "Hello there" }] },
        event_count: 6,
      },
      metadata: { stream: true },
    });
  });
});
