/** Pure modules of the proxy: SSE parsing, stream reassembly, record fitting, header filters. */
import { describe, expect, it } from "vitest";
import { fitRecord } from "../../workers/proxy/src/fit";
import { clientResponseHeaders, upstreamRequestHeaders } from "../../workers/proxy/src/headers";
import { StreamReassembler } from "../../workers/proxy/src/reassemble";
import { SseParser } from "../../workers/proxy/src/sse";
import { estimateUsage, MAX_RUN_CHARS } from "../../workers/proxy/src/tokens";

const enc = new TextEncoder();

describe("SseParser", () => {
  it("Should parse events split at any byte, including inside UTF-8 sequences and CRLF", () => {
    const wire = enc.encode('data: {"a":"héllo"}\r\n\r\n: comment\nevent: x\ndata: 1\ndata: 2\n\ndata: [DONE]\r\r');
    for (let split = 1; split < wire.length; split++) {
      const p = new SseParser();
      const events = [...p.push(wire.slice(0, split)), ...p.push(wire.slice(split)), ...p.end()];
      expect(events).toEqual([{ data: '{"a":"héllo"}' }, { event: "x", data: "1\n2" }, { data: "[DONE]" }]);
    }
  });

  it("Should dispatch a last event that lacks its blank line at the end", () => {
    const p = new SseParser();
    expect([...p.push("data: tail"), ...p.end()]).toEqual([{ data: "tail" }]);
  });
});

describe("StreamReassembler", () => {
  it("Should keep choices apart by index and count every event", () => {
    const r = new StreamReassembler();
    const chunk = (choices: unknown[]) => ({ data: JSON.stringify({ id: "c1", object: "chat.completion.chunk", model: "m", choices }) });
    r.push(
      chunk([
        { index: 1, delta: { role: "assistant", content: "B" } },
        { index: 0, delta: { role: "assistant", content: "A" } },
      ]),
    );
    r.push(
      chunk([
        { index: 0, delta: { content: "a" }, finish_reason: "stop" },
        { index: 1, delta: { content: "b" }, finish_reason: "length" },
      ]),
    );
    r.push({ data: "[DONE]" });
    expect(r.result().body).toMatchObject({
      object: "chat.completion",
      choices: [
        { index: 0, message: { content: "Aa" }, finish_reason: "stop" },
        { index: 1, message: { content: "Bb" }, finish_reason: "length" },
      ],
      usage: null,
      event_count: 3,
    });
  });

  it("Should cap kept text and say so", () => {
    const r = new StreamReassembler(5);
    for (const c of ["abc", "def", "ghi"]) r.push({ data: JSON.stringify({ choices: [{ index: 0, delta: { content: c } }] }) });
    const { body, truncated } = r.result();
    expect(truncated).toBe(true);
    expect(body).toMatchObject({ choices: [{ message: { content: "abcde" } }] });
  });

  it("Should keep an error event and ignore unparseable ones", () => {
    const r = new StreamReassembler();
    r.push({ data: '{"error":{"message":"overloaded","type":"server_error"}}' });
    r.push({ data: "not json" });
    expect(r.result().body).toMatchObject({ error: { type: "server_error" }, unparsed_events: 1, event_count: 2 });
  });
});

describe("fitRecord", () => {
  const secret = "sk-secret-123456789";
  it("Should scrub secrets and leave a small record whole", () => {
    const { json, truncated } = fitRecord({ request_body: { note: `key ${secret}` }, metadata: {} }, [secret], () => {});
    expect(truncated).toBe(false);
    expect(json).toBe('{"request_body":{"note":"key [REDACTED]"},"metadata":{}}');
  });

  it("Should cut the longest strings and long arrays to fit the budget", () => {
    const record = {
      request_body: { messages: [{ role: "user", content: "short question" }] },
      response_body: { text: "x".repeat(50_000), vectors: Array.from({ length: 20_000 }, (_, i) => i / 7) },
      metadata: {} as Record<string, unknown>,
    };
    const { json, truncated } = fitRecord(record, [], (r) => ((r.metadata as Record<string, unknown>).truncated = true), 20_000);
    expect(truncated).toBe(true);
    expect(json.length).toBeLessThanOrEqual(20_000);
    const parsed = JSON.parse(json);
    expect(parsed.request_body.messages[0].content).toBe("short question");
    expect(parsed.metadata.truncated).toBe(true);
    expect(parsed.response_body.text).toMatch(/…\[truncated \d+ chars\]$/);
  });
});

describe("header filters", () => {
  it("Should drop hop-by-hop, Connection-named, Sightline and cf-* headers on the way up", () => {
    const out = upstreamRequestHeaders(
      new Headers({
        Authorization: "Bearer sk-x",
        "X-Service-Key": "slk_x",
        "X-Upstream-Base-URL": "https://a",
        Connection: "keep-alive, X-Hop",
        "X-Hop": "1",
        "Keep-Alive": "timeout=5",
        "Proxy-Authorization": "Basic x",
        TE: "trailers",
        "CF-Connecting-IP": "1.2.3.4",
        "Content-Length": "10",
        "OpenAI-Beta": "assistants=v2",
      }),
    );
    expect([...out.keys()].sort()).toEqual(["authorization", "openai-beta"]);
  });

  it("Should keep Content-Length unless the body was decoded", () => {
    expect(clientResponseHeaders(new Headers({ "Content-Length": "5", "Transfer-Encoding": "chunked" })).get("content-length")).toBe("5");
    expect(clientResponseHeaders(new Headers({ "Content-Length": "5", "Content-Encoding": "gzip" })).get("content-length")).toBeNull();
  });
});

describe("token estimate", () => {
  it("Should count a long run of one character in slices, with the count of the whole run", async () => {
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    // 8,192 "x" is 1,024 tokens when counted whole (quadratic in gpt-tokenizer, see tokens.ts);
    // the sliced count must agree, and a run ten times longer must scale with it.
    const run = "x".repeat(8192);
    const whole = countTokens(run);
    const estimate = await estimateUsage({ prompt: "hi" }, { choices: [{ message: { content: run } }] });
    expect(estimate.completion_tokens).toBe(whole);
    const long = await estimateUsage({ prompt: "hi" }, { choices: [{ message: { content: "x".repeat(81_920) } }] });
    expect(long.completion_tokens).toBe(whole * 10);
  });

  it("Should count ordinary text exactly as the tokenizer does", async () => {
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    const text = `The quick brown fox jumps over the lazy dog. ${"https://example.com/".repeat(3)} ${"a".repeat(MAX_RUN_CHARS)} done`;
    const estimate = await estimateUsage({ prompt: "hi" }, { choices: [{ message: { content: text } }] });
    expect(estimate.completion_tokens).toBe(countTokens(text));
  });
});
