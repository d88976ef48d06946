/**
 * Issue 4: under `npm run dev`, the official `openai` SDK with baseURL
 * `http://127.0.0.1:<proxy port>/v1` completes a streaming and a non-streaming chat completion
 * (the upstream, given to the stack as UPSTREAM_BASE_URL, replays test/fixtures/openai/), and
 * each call appears in GET /api/requests with its six scores.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT } from "../../../scripts/lib/postgres";
import type { RequestDetail } from "../harness/api";
import { expectSixScores, readJson, type GetE2E } from "./context";

const PROVIDER_KEY = "sk-e2e-provider-key-0123456789";
const FIXTURES = "test/fixtures/openai";

/** The text a recorded SSE stream delivers, and its reported usage. */
function streamed(file: string): { text: string; usage: { prompt_tokens: number; completion_tokens: number } } {
  const events = readFileSync(join(ROOT, FIXTURES, file), "utf8")
    .split("\n")
    .filter((l) => l.startsWith("data: {"))
    .map((l) => JSON.parse(l.slice(6)));
  return { text: events.map((e) => e.choices[0]?.delta?.content ?? "").join(""), usage: events.find((e) => e.usage)!.usage };
}

/** Registers the capture proxy tests. */
export function proxySuite(e2e: GetE2E): void {
  describe("openai SDK through the capture proxy (issue 4)", () => {
    const run = randomUUID();
    const json = readJson(`${FIXTURES}/chat-completion.json`);
    const sse = streamed("chat-stream-usage.sse");
    let client: OpenAI;
    let before: Set<string>;

    beforeAll(async () => {
      const { stack, api } = e2e();
      before = await api.requestIds();
      client = new OpenAI({
        apiKey: PROVIDER_KEY,
        baseURL: `${stack.proxyUrl}/v1`,
        defaultHeaders: { "X-Service-Key": stack.key, "x-test-run": run },
        maxRetries: 0,
      });
    });

    it("Should complete a non-streaming chat completion", async () => {
      const completion = await client.chat.completions.create(
        { model: "gpt-4o-mini", messages: [{ role: "user", content: `e2e ${run}: json` }] },
        { headers: { "x-test-fixture": "chat-completion" } },
      );
      expect(completion).toEqual(json);
    });

    it("Should complete a streaming chat completion", async () => {
      const stream = await client.chat.completions.create(
        { model: "gpt-4o-mini", messages: [{ role: "user", content: `e2e ${run}: stream` }], stream: true, stream_options: { include_usage: true } },
        { headers: { "x-test-fixture": "chat-stream-usage" } },
      );
      let text = "";
      let usage: unknown;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? "";
        usage ??= chunk.usage ?? undefined;
      }
      expect(text).toBe(sse.text);
      expect(usage).toMatchObject(sse.usage);
    });

    it("Should have forwarded both calls upstream with the provider's key and without the Sightline key", async () => {
      const { providers } = e2e();
      const seen = await providers.openaiSaw(run);
      expect(seen.map((r) => [r.method, r.url])).toEqual([
        ["POST", "/v1/chat/completions"],
        ["POST", "/v1/chat/completions"],
      ]);
      for (const request of seen) {
        expect(request.headers.authorization).toBe(`Bearer ${PROVIDER_KEY}`);
        expect(request.headers["x-service-key"]).toBeUndefined();
      }
    });

    it("Should list each call in GET /api/requests and score each with the six scorers", async () => {
      const { api, providers } = e2e();
      const upstream = new URL(providers.openaiUrl).origin;
      const fresh = await api.newRequests(before, 2);
      const byContent = new Map<string, RequestDetail>(fresh.map((r) => [r.request_body?.messages?.[0]?.content, r]));
      const plain = byContent.get(`e2e ${run}: json`);
      const streamedCall = byContent.get(`e2e ${run}: stream`);
      expect(plain, JSON.stringify(fresh.map((r) => r.request_body))).toMatchObject({
        model: "gpt-4o-mini",
        prompt_tokens: json.usage.prompt_tokens,
        completion_tokens: json.usage.completion_tokens,
        metadata: expect.objectContaining({ stream: false, upstream }),
      });
      expect(streamedCall).toMatchObject({
        model: "gpt-4o-mini",
        prompt_tokens: sse.usage.prompt_tokens,
        completion_tokens: sse.usage.completion_tokens,
        metadata: expect.objectContaining({ stream: true, token_count_source: "reported", upstream }),
      });
      expect(streamedCall!.response_body.choices[0].message.content).toBe(sse.text);
      for (const call of [plain!, streamedCall!]) expectSixScores(await api.scored(call.id));
    });
  });
}
