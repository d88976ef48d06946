import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "../../workers/api/src/app";
import type { AppEnv } from "../../workers/api/src/env";
import { api, internal, logBody, newProject, testEnv, expectProblem } from "./helpers";

describe("Error responses", () => {
  it("Should answer unknown routes with 404 {detail}", async () => {
    const res = await api("/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ detail: "no route for GET /nope" });
  });

  it("Should answer a known path with the wrong method with 405 and Allow", async () => {
    const res = await api("/internal/log", { method: "GET" });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST");
    expect(((await res.json()) as { detail: string }).detail).toContain("not allowed");
    const put = await api(`/api/requests/${crypto.randomUUID()}`, { method: "PUT" });
    expect(put.status).toBe(405);
  });

  it("Should answer 503 {detail} when the database is down, without leaking the error", async () => {
    const app = createApp();
    const downEnv = { ...testEnv, HYPERDRIVE: { connectionString: "postgres://postgres:postgres@127.0.0.1:1/none" } } as unknown as AppEnv;
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request("http://api.test/internal/log", {
        method: "POST",
        headers: { "X-Service-Key": "slk_" + "0".repeat(48), "Content-Type": "application/json" },
        body: JSON.stringify(logBody()),
      }),
      downEnv,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(503);
    const body = (await res.json()) as { detail: string };
    expect(body).toEqual({ detail: "the database is unavailable, try again later" });
  });
});

describe("OpenAPI and docs", () => {
  it("Should serve the OpenAPI 3.1 document with the security schemes", async () => {
    const res = await api("/openapi.json");
    expect(res.status).toBe(200);
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown>; components: { securitySchemes: Record<string, unknown> } };
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["BearerKey", "InternalSecret", "ServiceKey"]);
    for (const path of [
      "/internal/log",
      "/api/requests",
      "/api/requests/{id}",
      "/api/safety-scores",
      "/api/safety-scores/summary",
      "/api/billing/subscription",
    ])
      expect(doc.paths).toHaveProperty([path]);
  });

  it("Should serve Swagger UI at /docs unless disabled", async () => {
    const res = await api("/docs");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("swagger");
    const app = createApp();
    const ctx = createExecutionContext();
    const off = await app.fetch(new Request("http://api.test/docs"), { ...testEnv, DOCS_ENABLED: "false" } as unknown as AppEnv, ctx);
    await expectProblem(off, 404, "disabled");
  });
});

describe("Neon serverless path (DATABASE_URL)", () => {
  it("Should serve ingest and reads over @neondatabase/serverless through a WebSocket relay", async () => {
    const { key, projectId } = await newProject();
    const app = createApp();
    const neonEnv = { ...testEnv, DATABASE_URL: testEnv.TEST_DATABASE_URL, NEON_WSPROXY: testEnv.TEST_NEON_WSPROXY } as unknown as AppEnv;
    const call = async (path: string, init: RequestInit = {}) => {
      const ctx = createExecutionContext();
      const res = await app.fetch(new Request(`http://api.test${path}`, init), neonEnv, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    const posted = await call("/internal/log", {
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(logBody({ model: "via-neon" })),
    });
    expect(posted.status).toBe(202);
    const { id } = (await posted.json()) as { id: string };
    const got = await call(`/api/requests/${id}`, { headers: { "X-Service-Key": key } });
    expect(got.status).toBe(200);
    expect(await got.json()).toMatchObject({ id, model: "via-neon", project_id: projectId });
    // The Hyperdrive path sees the same row: both paths share one database.
    const viaPg = await api(`/api/requests/${id}?project_id=${projectId}`, { headers: internal });
    expect(viaPg.status).toBe(200);
  });
});
