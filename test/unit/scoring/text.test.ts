import { describe, expect, it } from "vitest";
import { extractCall } from "../../../src/scoring/text";

describe("extractCall", () => {
  it("Should separate OpenAI roles, content parts, tools and tool results", () => {
    const x = extractCall(
      {
        model: "gpt-4o",
        max_completion_tokens: 500,
        n: 2,
        logprobs: true,
        top_logprobs: 5,
        stream: true,
        tools: [{ type: "function", function: { name: "lookup", description: "Look up an order" } }],
        messages: [
          { role: "developer", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "Hello" },
              { type: "image_url", image_url: { url: "data:..." } },
            ],
          },
          { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: { name: "lookup", arguments: '{"id":"7"}' } }] },
          { role: "tool", tool_call_id: "1", content: "Order 7 shipped" },
        ],
      },
      {
        choices: [
          { message: { role: "assistant", content: "Done", tool_calls: [{ function: { name: "x", arguments: '{"a":"b"}' } }] }, finish_reason: "length" },
        ],
      },
    );
    expect(x.system).toContain("Be brief.");
    expect(x.system.join(" ")).toContain("Look up an order");
    expect(x.user).toEqual(["Hello"]);
    expect(x.documents).toEqual(["Order 7 shipped"]);
    expect(x.history.join(" ")).toContain('{"id":"7"}');
    expect(x.completion).toContain("Done");
    expect(x.completion.join(" ")).toContain('{"a":"b"}');
    expect(x.finishReasons).toEqual(["length"]);
    expect(x.params).toEqual({ maxTokens: 500, n: 2, logprobs: true, topLogprobs: 5, stream: true });
  });

  it("Should treat messages that start like retrieved context as documents, one per passage", () => {
    const x = extractCall(
      {
        messages: [
          { role: "system", content: "Retrieved documents:\n[1] Alpha is 3.\n[2] Alpha is 4." },
          { role: "user", content: "Context: the sky is blue" },
          { role: "user", content: "What is alpha?" },
        ],
      },
      null,
    );
    expect(x.documents).toEqual(["[1] Alpha is 3.", "[2] Alpha is 4.", "the sky is blue"]);
    expect(x.user).toEqual(["What is alpha?"]);
    expect(x.system).toEqual([]);
  });

  it("Should cut a RAG template's context at numbered passages joined by single newlines", () => {
    const prompt = (context: string) =>
      `You are an assistant for question-answering tasks. Use the following pieces of retrieved context to answer the question. If you don't know the answer, just say that you don't know.\nQuestion: How tall is the tower?\nContext: ${context}\nAnswer:`;
    const numbered = extractCall(
      { messages: [{ role: "user", content: prompt("Passage 1: The tower is 300 m tall.\nPassage 2: The tower is 330 m tall.\n[3] It opened in 1889.") }] },
      null,
    );
    expect(numbered.documents).toEqual(["Passage 1: The tower is 300 m tall.", "Passage 2: The tower is 330 m tall.", "[3] It opened in 1889."]);
    expect(numbered.user).toEqual(["How tall is the tower?"]);
    // A paragraph without markers stays one passage, lines and all.
    const plain = extractCall({ messages: [{ role: "user", content: prompt("The tower is 330 m tall.\nIt opened in 1889.\n\nParis is in France.") }] }, null);
    expect(plain.documents).toEqual(["The tower is 330 m tall.\nIt opened in 1889.", "Paris is in France."]);
  });

  it("Should read a tool's JSON list and numbered search hits as one passage each", () => {
    const tool = (content: string) =>
      extractCall(
        {
          messages: [
            { role: "user", content: "What port does it use?" },
            { role: "assistant", content: null, tool_calls: [{ id: "1", type: "function", function: { name: "search", arguments: "{}" } }] },
            { role: "tool", tool_call_id: "1", content },
          ],
        },
        null,
      ).documents;
    expect(
      tool(
        JSON.stringify({
          passages: [
            { title: "A", text: "Port 5432." },
            { title: "B", text: "Port 5433." },
          ],
        }),
      ),
    ).toEqual(["A\nPort 5432.", "B\nPort 5433."]);
    expect(tool(JSON.stringify({ order: 7, status: "shipped" }))).toEqual(['{"order":7,"status":"shipped"}']);
    expect(tool("Result 1: The default port is 5432.\n\nResult 2: Some guides say 5433.")).toEqual([
      "Result 1: The default port is 5432.",
      "Result 2: Some guides say 5433.",
    ]);
    // In a user's own message "Result 1:" is no retrieval marker.
    const own = extractCall({ messages: [{ role: "user", content: "My test log:\nResult 1: pass\nResult 2: fail\nWhy did the second one fail?" }] }, null);
    expect(own.documents).toEqual([]);
  });

  it("Should reassemble streamed delta chunks per choice", () => {
    const x = extractCall({ messages: [] }, [
      { choices: [{ index: 0, delta: { content: "Hel" } }] },
      { choices: [{ index: 0, delta: { content: "lo" }, finish_reason: "stop" }] },
    ]);
    expect(x.completion).toEqual(["Hello"]);
    expect(x.finishReasons).toEqual(["stop"]);
  });

  it("Should read Anthropic system blocks, tool_result and document blocks, and response content", () => {
    const x = extractCall(
      {
        model: "claude-3-5-sonnet",
        max_tokens: 1024,
        system: [{ type: "text", text: "You are terse." }],
        messages: [
          {
            role: "user",
            content: [
              { type: "document", source: { type: "text", data: "Doc body" } },
              { type: "text", text: "Summarise" },
            ],
          },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content: [{ type: "text", text: "42 degrees" }] }] },
        ],
      },
      {
        content: [
          { type: "text", text: "It is warm." },
          { type: "tool_use", name: "t", input: { city: "Oslo" } },
        ],
        stop_reason: "max_tokens",
      },
    );
    expect(x.system).toEqual(["You are terse."]);
    expect(x.user).toEqual(["Summarise"]);
    expect(x.documents).toEqual(["Doc body", "42 degrees"]);
    expect(x.completion).toEqual(["It is warm.", "Oslo"]);
    expect(x.finishReasons).toEqual(["max_tokens"]);
    expect(x.params.maxTokens).toBe(1024);
  });

  it("Should read Cohere v1 chat (preamble, chat_history, documents) and v2 responses", () => {
    const v1 = extractCall(
      {
        message: "Where is it?",
        preamble: "Answer from documents.",
        chat_history: [
          { role: "USER", message: "Hi" },
          { role: "CHATBOT", message: "Hello" },
        ],
        documents: [{ title: "a", snippet: "It is in Oslo" }],
      },
      { text: "Oslo", finish_reason: "COMPLETE" },
    );
    expect(v1.system).toEqual(["Answer from documents."]);
    expect(v1.user).toEqual(["Hi", "Where is it?"]);
    expect(v1.history).toEqual(["Hello"]);
    expect(v1.documents).toEqual(["a", "It is in Oslo"]);
    expect(v1.completion).toEqual(["Oslo"]);
    const v2 = extractCall(
      { messages: [{ role: "user", content: "Q" }] },
      { message: { role: "assistant", content: [{ type: "text", text: "A" }] }, finish_reason: "MAX_TOKENS" },
    );
    expect(v2.completion).toEqual(["A"]);
    expect(v2.finishReasons).toEqual(["MAX_TOKENS"]);
  });

  it("Should collect every string of a plain trace payload", () => {
    const x = extractCall({ args: ["first", { q: "second" }], kwargs: { k: "third", n: 3 } }, { output: { text: "result" } });
    expect(x.user).toEqual(["first", "second", "third"]);
    expect(x.completion).toEqual(["result"]);
    const y = extractCall({ input: "in" }, { output: "out" });
    expect(y.user).toEqual(["in"]);
    expect(y.completion).toEqual(["out"]);
  });

  it("Should return empty lists for null bodies", () => {
    const x = extractCall(null, null);
    expect(x.user.length + x.completion.length + x.documents.length).toBe(0);
  });
});
