/**
 * Against the REAL local stack: embedded PostgreSQL + the API and scorer workers under
 * `wrangler dev` (workerd). A project and key are created through the internal API; calls
 * are logged through direct mode (the real Anthropic client against the stand-in upstream)
 * and trace; then the records and their 6 safety scores are read back through /api.
 */
import Anthropic from "@anthropic-ai/sdk";
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, ensureDatabase, startEmbeddedPostgres, type LocalPostgres } from "../../../scripts/lib/postgres";
import { startWorkers, type RunningWorkers } from "../../../scripts/lib/workers";
import { configure, flush, shutdown, stats, trace, wrapAnthropic } from "../src/index.js";
import { startUpstream, type StandIn } from "./support/servers.js";

const PG_PORT = 25437;
const API_PORT = 8797;
const SECRET = randomBytes(32).toString("hex");

let pg: LocalPostgres | undefined;
let workers: RunningWorkers | undefined;
let upstream: StandIn | undefined;
let apiUrl = "";
let apiKey = "";

async function call(path: string, init: RequestInit & { headers?: Record<string, string> } = {}): Promise<any> {
  const res = await fetch(apiUrl + path, { ...init, headers: { "content-type": "application/json", ...(init.headers ?? {}) } });
  const body = await res.json();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

async function poll<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  pg = await startEmbeddedPostgres({ dir: ".data/sdk-js-pg", port: PG_PORT, ephemeral: true });
  await ensureDatabase(pg.serverUrl, "sightline_sdk_js", true);
  const databaseUrl = pg.urlFor("sightline_sdk_js");
  await applyMigrations(databaseUrl);
  workers = await startWorkers({ databaseUrl, internalSecret: SECRET, apiPort: API_PORT, quiet: true, persistTo: ".wrangler/sdk-js-test" });
  apiUrl = workers.apiUrl;
  const admin = { "X-Internal-Secret": SECRET };
  const project = await call("/internal/projects", { method: "POST", headers: admin, body: JSON.stringify({ name: "sdk-js integration" }) });
  const key = await call(`/internal/projects/${project.id}/keys`, { method: "POST", headers: admin, body: JSON.stringify({ name: "sdk-js" }) });
  apiKey = key.key;
  upstream = await startUpstream();
}, 180_000);

afterAll(async () => {
  await shutdown({ timeoutMs: 2000 });
  await upstream?.close();
  await workers?.stop();
  await pg?.stop();
}, 60_000);

describe("sightline-js against the real API", () => {
  it("Should store direct-mode and traced calls and score each with 6 scorers", async () => {
    configure({ apiKey, baseUrl: apiUrl, flushIntervalMs: 100 });
    const client = wrapAnthropic(new Anthropic({ apiKey: "sk-ant-test", baseURL: upstream!.url, maxRetries: 0 }));
    const message = await client.messages.create({ model: "claude-3-5-haiku-latest", max_tokens: 64, messages: [{ role: "user", content: "Hello" }] });
    expect(message.content[0]).toMatchObject({ text: "Hello! How can I help you today?" });
    const stream = await client.messages.create({
      model: "claude-3-5-haiku-latest",
      max_tokens: 64,
      messages: [{ role: "user", content: "Stream please" }],
      stream: true,
    });
    for await (const _ of stream) void _;
    const summarise = trace({ model: "internal-summariser", provider: "custom" }, async (text: string) => text.slice(0, 10));
    expect(await summarise("a long text to summarise")).toBe("a long tex");

    expect(await flush({ timeoutMs: 15_000 })).toBe(true);
    expect(stats()).toMatchObject({ sent: 3, failed: 0, rejected: 0 });

    const headers = { "X-Service-Key": apiKey };
    const list = await poll(
      "3 records",
      async () => {
        const page = await call("/api/requests?page_size=50", { headers });
        return page.total >= 3 ? page : undefined;
      },
      10_000,
    );
    const byModel = new Map<string, any>(list.items.map((r: any) => [`${r.model}:${r.metadata?.stream ?? "-"}`, r]));
    const direct = byModel.get("claude-3-5-haiku-latest:false");
    const streamed = byModel.get("claude-3-5-haiku-latest:true");
    const traced = byModel.get("internal-summariser:-");
    expect(direct).toMatchObject({ provider: "anthropic", prompt_tokens: 15, completion_tokens: 10 });
    expect(streamed).toMatchObject({ provider: "anthropic", prompt_tokens: 25, completion_tokens: 15 });
    expect(traced).toMatchObject({ provider: "custom" });

    for (const record of [direct, streamed, traced]) {
      const detail = await poll(
        `6 scores for ${record.id}`,
        async () => {
          const d = await call(`/api/requests/${record.id}`, { headers });
          return Array.isArray(d.safety_scores) && d.safety_scores.length === 6 ? d : undefined;
        },
        15_000,
      );
      expect(new Set(detail.safety_scores.map((s: any) => s.scorer_name))).toEqual(
        new Set(["content_safety", "pii_detection", "jailbreak_detection", "data_poisoning", "vector_weakness", "unbounded_consumption"]),
      );
      expect(detail.metadata.sdk).toBe("sightline-js/0.1.0");
    }
    expect(traced.response_body ?? (await call(`/api/requests/${traced.id}`, { headers })).response_body).toEqual({ output: "a long tex" });
  }, 120_000);
});
