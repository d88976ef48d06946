import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, stats, withProxy } from "../src/index.js";
import { proxyBaseUrl } from "../src/proxy.js";
import { startUpstream, type StandIn } from "./support/servers.js";

let proxy: StandIn;
beforeAll(async () => {
  proxy = await startUpstream(); // plays the capture proxy: answers /v1/chat/completions
});
afterAll(() => proxy.close());

describe("withProxy", () => {
  it("Should send the real openai client to {proxyUrl}/v1/chat/completions with X-Service-Key", async () => {
    configure({ apiKey: "slk_proxy", proxyUrl: proxy.url });
    const original = new OpenAI({ apiKey: "sk-openai", baseURL: "https://api.openai.invalid/v1", defaultHeaders: { "X-App": "demo" } });
    const client = withProxy(original);
    expect(client).not.toBe(original);
    expect(client).toBeInstanceOf(OpenAI);
    expect(original.baseURL).toBe("https://api.openai.invalid/v1");
    const reply = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] });
    expect(reply.choices[0]?.message.content).toBe("Hello! How can I assist you today?");
    const [req] = proxy.received;
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers["x-service-key"]).toBe("slk_proxy");
    expect(req?.headers["authorization"]).toBe("Bearer sk-openai");
    expect(req?.headers["x-app"]).toBe("demo");
    expect(stats().enqueued).toBe(0); // the proxy logs; nothing is queued here
  });

  it("Should accept per-call overrides and normalise the URL", () => {
    configure({ apiKey: "slk_a" });
    const client = withProxy(new OpenAI({ apiKey: "x" }), { proxyUrl: "http://proxy.local:8080/v1/", apiKey: "slk_b" });
    expect(client.baseURL).toBe("http://proxy.local:8080/v1");
    expect(proxyBaseUrl("http://localhost:8080/")).toBe("http://localhost:8080/v1");
  });

  it("Should shallow-copy other clients that have a baseURL", () => {
    configure({ apiKey: "slk_a", proxyUrl: "http://localhost:8080" });
    const other = { baseURL: "https://example.invalid", defaultHeaders: { a: "1" } };
    const copy = withProxy(other);
    expect(copy).not.toBe(other);
    expect(copy).toEqual({ baseURL: "http://localhost:8080/v1", defaultHeaders: { a: "1", "X-Service-Key": "slk_a" } });
    expect(other.baseURL).toBe("https://example.invalid");
  });
});
