import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { SESSION_HEADER, trace, withProxy, wrapAnthropic } from "../src/index.js";
import { flushedLogs, useStandIns } from "./support/lifecycle.js";

const servers = useStandIns();
const params = { model: "claude-3-5-haiku-latest", max_tokens: 64, messages: [{ role: "user" as const, content: "Hello" }] };
const anthropic = (options?: { sessionId?: string }) =>
  wrapAnthropic(new Anthropic({ apiKey: "sk-ant-test", baseURL: servers.upstream.url, maxRetries: 0 }), options);

describe("session id", () => {
  it("Should send the client's sessionId as metadata.session_id (direct mode)", async () => {
    await anthropic({ sessionId: " conv-1 " }).messages.create(params);
    const [log] = await flushedLogs(servers);
    expect(log.metadata.session_id).toBe("conv-1");
  });

  it("Should let a call's X-Sightline-Session-Id header win, and never send it to the provider", async () => {
    const client = anthropic({ sessionId: "conv-client" });
    const before = servers.upstream.received.length;
    await client.messages.create(params, { headers: { [SESSION_HEADER]: "conv-call" } });
    await client.messages.create(params);
    const logs = await flushedLogs(servers);
    expect(logs.map((l) => l.metadata.session_id)).toEqual(["conv-call", "conv-client"]);
    const upstream = servers.upstream.received.slice(before).filter((r) => r.path === "/v1/messages");
    expect(upstream).toHaveLength(2);
    for (const request of upstream) expect(request.headers["x-sightline-session-id"]).toBeUndefined();
  });

  it("Should leave metadata without session_id when none is given", async () => {
    await anthropic().messages.create(params);
    const [log] = await flushedLogs(servers);
    expect(log.metadata).not.toHaveProperty("session_id");
  });

  it("Should put the session of trace() options on each record", async () => {
    const answer = trace({ model: "m1", sessionId: "conv-t" }, (q: string) => q.toUpperCase());
    expect(answer("hi")).toBe("HI");
    const [log] = await flushedLogs(servers);
    expect(log.metadata).toMatchObject({ trace: expect.any(String), session_id: "conv-t" });
  });

  it("Should add X-Sightline-Session-Id to every request of a proxied client", async () => {
    const client = withProxy(new OpenAI({ apiKey: "sk-openai" }), { proxyUrl: servers.upstream.url, sessionId: "conv-p" });
    await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "Hi" }] });
    const request = servers.upstream.received.at(-1);
    expect(request?.path).toBe("/v1/chat/completions");
    expect(request?.headers["x-sightline-session-id"]).toBe("conv-p");
  });
});
