/**
 * The API rows of issue 12's table: unknown project_id with the internal secret, a signed
 * webhook event without `data`, start after end, a body limit on every route, credentials
 * used as JSON object keys, and list pages consistent with their total under inserts.
 */
import { describe, expect, it } from "vitest";
import { api, internal, logBody, newProject, postLog } from "./helpers";
import { event, postWebhook, subscription, TEST_RETURN_ORIGIN } from "./stripe-helpers";

const TWO_MIB_PLUS_ONE = 2 * 1024 * 1024 + 1;

describe("Unknown project with the internal secret", () => {
  it("Should answer 404 {detail} on POST /internal/log", async () => {
    const res = await api(`/internal/log?project_id=${crypto.randomUUID()}`, { method: "POST", headers: internal, json: logBody() });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "project not found" });
  });
});

describe("Signed webhook events without data", () => {
  it("Should answer 400 {detail} for an event with no data or no data.object", async () => {
    const base = event("customer.subscription.updated", subscription("pro", { customer: "cus_nodata" }));
    for (const data of [undefined, null, {}, { object: null }, { object: "text" }]) {
      const payload = { ...base, id: `evt_nodata_${Math.random().toString(36).slice(2)}`, data } as unknown as typeof base;
      if (data === undefined) delete (payload as { data?: unknown }).data;
      const res = await postWebhook(payload);
      expect(res.status, JSON.stringify(data)).toBe(400);
      expect(await res.json()).toEqual({ detail: expect.stringMatching(/data\.object/) });
    }
  });
});

describe("Time ranges", () => {
  it("Should answer 422 naming start when start is after end, and accept start = end", async () => {
    const { key } = await newProject();
    const headers = { "X-Service-Key": key };
    const range = "start=2026-11-02T00:00:00Z&end=2026-11-01T00:00:00Z";
    for (const path of ["/api/requests", "/api/safety-scores", "/api/safety-scores/summary"]) {
      const res = await api(`${path}?${range}`, { headers });
      expect(res.status, path).toBe(422);
      expect(await res.json()).toEqual({ detail: "start: must not be after end" });
      const empty = await api(`${path}?start=2026-11-01T00:00:00Z&end=2026-11-01T00:00:00Z`, { headers });
      expect(empty.status, path).toBe(200);
    }
  });
});

describe("Body limit on every route", () => {
  it("Should answer 413 {detail} to a body of 2 MiB + 1 byte on admin, billing and key routes", async () => {
    const { projectId } = await newProject();
    const big = JSON.stringify({ name: "x".repeat(TWO_MIB_PLUS_ONE) });
    const billing = JSON.stringify({ tier: "pro", success_url: `${TEST_RETURN_ORIGIN}/${"x".repeat(TWO_MIB_PLUS_ONE)}`, cancel_url: TEST_RETURN_ORIGIN });
    for (const [path, body] of [
      ["/internal/projects", big],
      [`/internal/projects/${projectId}/keys`, big],
      [`/api/billing/checkout?project_id=${projectId}`, billing],
      [`/api/billing/portal?project_id=${projectId}`, billing],
      ["/internal/log", big],
    ] as const) {
      const res = await api(path, { method: "POST", headers: { ...internal, "Content-Type": "application/json" }, body });
      expect(res.status, path).toBe(413);
      expect(await res.json(), path).toEqual({ detail: expect.stringMatching(/larger than the limit/) });
    }
    const list = (await (await api("/internal/projects", { headers: internal })).json()) as { items: { name: string }[] };
    expect(list.items.some((p) => p.name.length > 1000)).toBe(false);
  });
});

describe("Credentials in stored bodies", () => {
  it("Should redact the caller's key and any Sightline key, as JSON object keys and in text", async () => {
    const { key } = await newProject();
    const other = "slk_" + "cd".repeat(24);
    const res = await postLog(
      key,
      logBody({
        request_body: { messages: [{ role: "user", content: `my key is ${key}` }], [key]: "as a property name", nested: { [`x-${other}`]: other } },
        response_body: { [key]: { [key]: key } },
        metadata: { [key]: true },
      }),
    );
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const row = (await (await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } })).json()) as Record<string, unknown>;
    const stored = JSON.stringify([row.request_body, row.response_body, row.metadata]);
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(other);
    expect(row.request_body).toEqual({
      messages: [{ role: "user", content: "my key is [REDACTED]" }],
      "[REDACTED]": "as a property name",
      nested: { "x-[REDACTED]": "[REDACTED]" },
    });
    expect(row.response_body).toEqual({ "[REDACTED]": { "[REDACTED]": "[REDACTED]" } });
    expect(row.metadata).toEqual({ "[REDACTED]": true });
  });
});

describe("List reads during inserts", () => {
  it("Should answer items and total from one snapshot while rows are being inserted", async () => {
    const { key } = await newProject();
    const headers = { "X-Service-Key": key };
    const pages: { items: unknown[]; total: number; page: number; page_size: number }[] = [];
    // Two rounds (two separate statements disagreed in about one round of two before the fix).
    for (let round = 0; round < 2; round++) {
      const inserts = Array.from({ length: 20 }, () => postLog(key));
      // Lists of requests, on page 1 and on a page that fills up as rows arrive (page_size 3, page 4).
      const reads = Array.from({ length: 40 }, async (_, i) => {
        const res = await api(i % 2 ? "/api/requests?page_size=3&page=4" : "/api/requests", { headers });
        expect(res.status).toBe(200);
        pages.push((await res.json()) as (typeof pages)[number]);
      });
      await Promise.all([...inserts, ...reads]);
    }
    expect(pages).toHaveLength(80);
    for (const p of pages) {
      const before = (p.page - 1) * p.page_size;
      expect(p.items.length, JSON.stringify({ total: p.total, page: p.page })).toBe(Math.max(0, Math.min(p.page_size, p.total - before)));
    }
    const final = (await (await api("/api/requests?page_size=200", { headers })).json()) as { items: unknown[]; total: number };
    expect(final.total).toBe(40);
    expect(final.items).toHaveLength(40);
  });
});
