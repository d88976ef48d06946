/**
 * Helpers for tests that run inside workerd against the API worker and the test PostgreSQL.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { expect } from "vitest";
import { createApp } from "../../workers/api/src/app";
import type { AppEnv } from "../../workers/api/src/env";
import { TEST_INTERNAL_SECRET } from "../setup/constants";

export { TEST_INTERNAL_SECRET };

/** Test bindings added by vitest.config.ts on top of wrangler.jsonc's. */
export const testEnv = env as typeof env & { TEST_DATABASE_URL: string; TEST_NEON_WSPROXY: string };

/** Sends a request to the API worker (through its real fetch handler). */
export function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("Content-Type", "application/json");
    body = JSON.stringify(init.json);
  }
  return SELF.fetch(`http://api.test${path}`, { ...init, headers, body });
}

/**
 * Asserts that `res` is an error answer with HTTP status `status` whose problem body
 * (`{"detail": "..."}`) has a detail containing `part`. Reads the body.
 */
export async function expectProblem(res: Response, status: number, part: string): Promise<void> {
  expect(res.status).toBe(status);
  expect(((await res.json()) as { detail: string }).detail).toContain(part);
}

/** Headers carrying the internal secret. */
export const internal = { "X-Internal-Secret": TEST_INTERNAL_SECRET };

/** Creates a project and one API key through the /internal routes. */
export async function newProject(name = "test project"): Promise<{ projectId: string; key: string; keyId: string }> {
  const p = await api("/internal/projects", { method: "POST", headers: internal, json: { name } });
  if (p.status !== 201) throw new Error(`create project: ${p.status} ${await p.text()}`);
  const { id: projectId } = (await p.json()) as { id: string };
  const k = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "ci" } });
  if (k.status !== 201) throw new Error(`create key: ${k.status} ${await k.text()}`);
  const { key, id: keyId } = (await k.json()) as { key: string; id: string };
  return { projectId, key, keyId };
}

/** A valid POST /internal/log body; `overrides` replace fields. */
export function logBody(overrides: Record<string, unknown> = {}) {
  return {
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 12,
    completion_tokens: 5,
    cost_usd: 0.0000123,
    latency_ms: 321,
    request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi" }] },
    response_body: { choices: [{ message: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }] },
    ...overrides,
  };
}

/** Posts a log record with a key in X-Service-Key. */
export function postLog(key: string, body: unknown = logBody()) {
  return api("/internal/log", { method: "POST", headers: { "X-Service-Key": key }, json: body });
}

/**
 * Sends `path` to a fresh app (not the SELF worker) whose env has `overrides` over the test
 * env, e.g. a bad variable or a missing secret; waits for its `waitUntil` work.
 */
export async function withEnv(overrides: Partial<Record<keyof AppEnv, unknown>>, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await createApp().fetch(new Request(`http://api.test${path}`, init), { ...testEnv, ...overrides } as unknown as AppEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

export { sql } from "../setup/sql";
