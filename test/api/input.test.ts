/**
 * Input PostgreSQL cannot store (src/ingest/input.ts): NUL and lone surrogates in JSON bodies are
 * stored as U+FFFD (and POST /internal/log says so in metadata), in query parameters they
 * answer 422 naming the parameter, and nesting deeper than MAX_JSON_DEPTH answers 422.
 */
import { describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../../src/ingest/input";
import { api, internal, logBody, newProject, postLog } from "./helpers";
import { event, postWebhook, subscription } from "./stripe-helpers";

const post = (path: string, text: string, headers: Record<string, string>) =>
  api(path, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: text });

const nested = (depth: number, inner = "1") => "[".repeat(depth) + inner + "]".repeat(depth);

describe("Text PostgreSQL cannot store", () => {
  it("Should store NUL and lone surrogates in any key or value as U+FFFD and count the strings in metadata", async () => {
    const { key, projectId } = await newProject();
    // JSON.stringify writes a lone surrogate as the escape \ud800, as a client would send it.
    const body = logBody({
      model: "gpt\u0000x",
      provider: "open\ud800ai",
      request_body: { messages: [{ role: "user", content: "a\u0000b" }], "k\udc00ey": { "\u0000": "\ud83d" } },
      response_body: ["\ud800\ud800", "fine 😀"],
      metadata: { note: "ok" },
    });
    const res = await postLog(key, body);
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const got = await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } });
    expect(got.status).toBe(200);
    const row = (await got.json()) as Record<string, unknown>;
    expect(row).toMatchObject({
      project_id: projectId,
      model: "gpt\uFFFDx",
      provider: "open\uFFFDai",
      request_body: { messages: [{ role: "user", content: "a\uFFFDb" }], "k\uFFFDey": { "\uFFFD": "\uFFFD" } },
      response_body: ["\uFFFD\uFFFD", "fine 😀"],
      metadata: { note: "ok", text_replaced: 7 },
    });
  });

  it("Should store a clean body unchanged, without text_replaced", async () => {
    const { key } = await newProject();
    const res = await postLog(key, logBody({ metadata: { emoji: "😀" } }));
    const { id } = (await res.json()) as { id: string };
    const row = (await (await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } })).json()) as { metadata: unknown };
    expect(row.metadata).toEqual({ emoji: "😀" });
  });

  it("Should answer 422 naming the query parameter for NUL in ?model= and other filters", async () => {
    const { key } = await newProject();
    for (const path of [
      "/api/requests?model=%00",
      "/api/requests?model=gpt%00x&page=1",
      "/api/safety-scores?scorer_name=%00",
      "/api/safety-scores/summary?x%00=1",
    ]) {
      const res = await api(path, { headers: { "X-Service-Key": key } });
      expect(res.status, path).toBe(422);
      expect(((await res.json()) as { detail: string }).detail, path).toMatch(/NUL/);
    }
    const named = await api("/api/requests?model=gpt%00x", { headers: { "X-Service-Key": key } });
    expect(((await named.json()) as { detail: string }).detail).toMatch(/^model: /);
  });

  it("Should store a project name and a key name with NUL as U+FFFD", async () => {
    const p = await api("/internal/projects", { method: "POST", headers: internal, json: { name: "acme\u0000\ud800" } });
    expect(p.status).toBe(201);
    const project = (await p.json()) as { id: string; name: string };
    expect(project.name).toBe("acme\uFFFD\uFFFD");
    const k = await api(`/internal/projects/${project.id}/keys`, { method: "POST", headers: internal, json: { name: "\u0000" } });
    expect(k.status).toBe(201);
    expect(((await k.json()) as { name: string }).name).toBe("\uFFFD");
  });
});

describe("Nesting deeper than MAX_JSON_DEPTH", () => {
  it("Should answer 422 for 100,000-deep nesting on ingest and admin routes, and store nothing", async () => {
    const { key, projectId } = await newProject();
    const deep = `{"model":"m","provider":"p","request_body":{"x":${nested(100_000)}}}`;
    const res = await post("/internal/log", deep, { "X-Service-Key": key });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/nested deeper than 128 levels/);
    const list = (await (await api("/api/requests", { headers: { "X-Service-Key": key } })).json()) as { total: number };
    expect(list.total).toBe(0);
    for (const [path, headers] of [
      ["/internal/projects", internal],
      [`/internal/projects/${projectId}/keys`, internal],
      [`/api/billing/portal?project_id=${projectId}`, internal],
    ] as const) {
      const r = await post(path, `{"name":${nested(100_000)}}`, headers);
      expect(r.status, path).toBe(422);
      expect(await r.json(), path).toEqual({ detail: expect.stringMatching(/nested deeper/) });
    }
  });

  it("Should accept nesting up to the limit and refuse one level more, naming the field", async () => {
    const { key } = await newProject();
    // The record is level 1 and request_body level 2: its own nesting may add MAX - 2 levels.
    const at = `{"model":"m","provider":"p","request_body":{"x":${nested(MAX_JSON_DEPTH - 2)}}}`;
    expect((await post("/internal/log", at, { "X-Service-Key": key })).status).toBe(202);
    const over = `{"model":"m","provider":"p","request_body":{"x":${nested(MAX_JSON_DEPTH - 1)}}}`;
    const res = await post("/internal/log", over, { "X-Service-Key": key });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/^body\.request_body\.x\.0\.0/);
  });

  it("Should answer a signed webhook event with deep nesting or NUL without a 500", async () => {
    const deep = JSON.stringify(event("customer.subscription.updated", subscription("pro", { customer: "cus_deep" }))).replace(
      /}$/,
      `,"extra":${nested(100_000)}}`,
    );
    const res = await postWebhook(deep);
    expect([400, 422]).toContain(res.status);
    expect(await res.json()).toEqual({ detail: expect.any(String) });
    const nul = event("customer.subscription.updated", subscription("pro", { customer: "cus_\u0000nul" }));
    nul.id = "evt_\u0000\ud800";
    const ok = await postWebhook(nul);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ received: true });
  });
});
