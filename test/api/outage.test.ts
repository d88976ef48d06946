/**
 * Database outages: every route answers 503 with `Retry-After` and a `{detail}` when
 * PostgreSQL cannot be reached, on both driver paths (Hyperdrive/pg and Neon serverless),
 * and error log lines carry no payloads, SQL parameters or key material.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import Stripe from "stripe";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createApp } from "../../workers/api/src/app";
import type { AppEnv } from "../../workers/api/src/env";
import { internal, logBody, testEnv } from "./helpers";
import { event, subscription, TEST_RETURN_ORIGIN, TEST_WEBHOOK_SECRET } from "./stripe-helpers";

/** A port nothing listens on (port 1 needs root to bind; nothing does here). */
const CLOSED = "127.0.0.1:1";
const KEY = "slk_" + "ab".repeat(24);
const PROJECT = "01939a7e-0000-7000-8000-000000000001";
const ID = "01939a7e-0000-7000-8000-0000000000aa";

/** One request per route of the API, each of which needs the database. */
async function everyRoute(): Promise<{ name: string; request: Request }[]> {
  const key = { "X-Service-Key": KEY };
  const json = (headers: Record<string, string>, body: unknown) => ({
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const url = (path: string) => `http://api.test${path}`;
  const webhookBody = JSON.stringify(event("customer.subscription.updated", subscription("pro", { customer: "cus_outage" })));
  const signature = await Stripe.webhooks.generateTestHeaderStringAsync({
    payload: webhookBody,
    secret: TEST_WEBHOOK_SECRET,
    cryptoProvider: Stripe.createSubtleCryptoProvider(),
  });
  const back = { success_url: `${TEST_RETURN_ORIGIN}/ok`, cancel_url: `${TEST_RETURN_ORIGIN}/no` };
  return [
    { name: "POST /internal/log (key)", request: new Request(url("/internal/log"), json(key, logBody())) },
    { name: "POST /internal/log (secret)", request: new Request(url(`/internal/log?project_id=${PROJECT}`), json(internal, logBody())) },
    { name: "GET /api/requests (key)", request: new Request(url("/api/requests"), { headers: key }) },
    { name: "GET /api/requests (secret)", request: new Request(url(`/api/requests?project_id=${PROJECT}`), { headers: internal }) },
    { name: "GET /api/requests/{id}", request: new Request(url(`/api/requests/${ID}?project_id=${PROJECT}`), { headers: internal }) },
    { name: "GET /api/safety-scores", request: new Request(url(`/api/safety-scores?project_id=${PROJECT}`), { headers: internal }) },
    { name: "GET /api/safety-scores/summary", request: new Request(url(`/api/safety-scores/summary?project_id=${PROJECT}`), { headers: internal }) },
    { name: "GET /api/billing/subscription", request: new Request(url(`/api/billing/subscription?project_id=${PROJECT}`), { headers: internal }) },
    { name: "POST /api/billing/checkout", request: new Request(url(`/api/billing/checkout?project_id=${PROJECT}`), json(internal, { tier: "pro", ...back })) },
    {
      name: "POST /api/billing/portal",
      request: new Request(url(`/api/billing/portal?project_id=${PROJECT}`), json(internal, { return_url: back.success_url })),
    },
    { name: "POST /internal/projects", request: new Request(url("/internal/projects"), json(internal, { name: "down" })) },
    { name: "GET /internal/projects", request: new Request(url("/internal/projects"), { headers: internal }) },
    { name: "POST /internal/projects/{id}/keys", request: new Request(url(`/internal/projects/${PROJECT}/keys`), json(internal, { name: "k" })) },
    { name: "GET /internal/projects/{id}/keys", request: new Request(url(`/internal/projects/${PROJECT}/keys`), { headers: internal }) },
    { name: "POST .../revoke", request: new Request(url(`/internal/projects/${PROJECT}/keys/${ID}/revoke`), { method: "POST", headers: internal }) },
    { name: "POST .../rotate", request: new Request(url(`/internal/projects/${PROJECT}/keys/${ID}/rotate`), { method: "POST", headers: internal }) },
    { name: "DELETE .../keys/{id}", request: new Request(url(`/internal/projects/${PROJECT}/keys/${ID}`), { method: "DELETE", headers: internal }) },
    {
      name: "POST /webhook/payment",
      request: new Request(url("/webhook/payment"), {
        method: "POST",
        headers: { "Stripe-Signature": signature, "Content-Type": "application/json" },
        body: webhookBody,
      }),
    },
  ];
}

/** Sends `request` to a fresh app with `env`, waiting for its background work. */
async function send(env: AppEnv, request: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const hyperdriveDown = () => ({ ...testEnv, HYPERDRIVE: { connectionString: `postgres://postgres:postgres@${CLOSED}/none` } }) as unknown as AppEnv;
/** Neon path, relay up, PostgreSQL behind it down (the relay closes the WebSocket). */
const neonDatabaseDown = () =>
  ({ ...testEnv, DATABASE_URL: `postgres://postgres:postgres@${CLOSED}/none`, NEON_WSPROXY: testEnv.TEST_NEON_WSPROXY }) as unknown as AppEnv;
/** Neon path with its WebSocket proxy unreachable. */
const neonProxyDown = () => ({ ...testEnv, DATABASE_URL: testEnv.TEST_DATABASE_URL, NEON_WSPROXY: `${CLOSED}/v1` }) as unknown as AppEnv;

describe("Database outage: 503 with Retry-After on every route", () => {
  let logged: string[] = [];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
  });
  afterEach(() => vi.restoreAllMocks());

  for (const [path, env] of [
    ["Hyperdrive/pg, PostgreSQL port closed", hyperdriveDown],
    ["Neon serverless, PostgreSQL behind the relay down", neonDatabaseDown],
    ["Neon serverless, WebSocket proxy unreachable", neonProxyDown],
  ] as const) {
    it(`Should answer 503 {detail} + Retry-After on every route (${path})`, async () => {
      for (const { name, request } of await everyRoute()) {
        const res = await send(env(), request);
        expect.soft(res.status, name).toBe(503);
        expect.soft(res.headers.get("Retry-After"), name).toMatch(/^[1-9][0-9]*$/);
        expect.soft(await res.json(), name).toEqual({ detail: expect.stringMatching(/unavailable/) });
      }
      // The error lines name the failure, never the SQL, its parameters or the key's hash.
      const lines = logged.join("\n");
      expect(lines).toContain("database unavailable");
      expect(lines).not.toMatch(/Failed query|params:|slk_|[0-9a-f]{64}|messages|cus_outage/i);
    });
  }
});

describe("Request id on responses and log lines", () => {
  afterEach(() => vi.restoreAllMocks());

  it("Should put the request id on the error line and in X-Request-Id, without the body or the key", async () => {
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(" ")));
    const secret = "a-body-value-that-must-not-be-logged";
    const request = new Request("http://api.test/internal/log", {
      method: "POST",
      headers: { "X-Service-Key": KEY, "Content-Type": "application/json" },
      body: JSON.stringify(logBody({ request_body: { messages: [{ role: "user", content: secret }] } })),
    });
    const res = await send(hyperdriveDown(), request);
    expect(res.status).toBe(503);
    const id = res.headers.get("X-Request-Id");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const line = logged.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === "database unavailable");
    expect(line).toMatchObject({ level: "error", http_request_id: id, route: "/internal/log" });
    const text = logged.join("\n");
    expect(text).not.toContain(secret);
    expect(text).not.toContain(KEY);
    expect(text).not.toMatch(/[0-9a-f]{64}/); // nor the key's hash
  });

  it("Should keep a caller's X-Request-Id token and replace one that is not a plain token", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const ask = (id: string) => send(hyperdriveDown(), new Request("http://api.test/api/requests", { headers: { "X-Service-Key": KEY, "X-Request-Id": id } }));
    expect((await ask("trace-42_a")).headers.get("X-Request-Id")).toBe("trace-42_a");
    const replaced = (await ask('no spaces; or quotes"')).headers.get("X-Request-Id");
    expect(replaced).toMatch(/^[0-9a-f-]{36}$/);
  });
});
