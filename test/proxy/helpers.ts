/**
 * Helpers for the proxy tests (workerd). The proxy runs through its real fetch handler, either
 * as `SELF` (the wired worker, real bindings) or called directly with env overrides and an
 * execution context the test can wait on.
 */
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import OpenAI from "openai";
import type { ProxyEnv } from "../../workers/proxy/src/env";
import { hashKey } from "../../src/auth/keys";
import type { LogRecordMessage } from "../../src/queues/log-records";
import worker from "../../workers/proxy/src/index";
import type { KeyState, SeenRequest } from "./stand-ins";

export type { KeyState, SeenRequest };

/** The proxy's bindings in the `proxy` project (vitest.config.ts). */
export const testEnv = env as unknown as ProxyEnv & { TEST_UPSTREAM_URL: string; TEST_CLOSED_URL: string; LOG_SINK: Fetcher };

/** One `log-records` message as the queue delivered it (test/proxy/log-sink.mjs). */
export interface QueuedRecord {
  /** The envelope: record id, key hash, and the record inline or an R2 pointer. */
  message: LogRecordMessage;
  /** Where the record travelled: in the message, or in R2 with the message pointing to it. */
  via: "inline" | "r2";
  /** The LogRequest record (from the message or the R2 object). */
  body: Record<string, unknown>;
  /** Size of the serialised record (R2) or message (inline), UTF-8 bytes. */
  bytes: number;
  /** How many records the queue message that carried it held (1, or more for a `v: 2` batch). */
  batched: number;
  /** Id of the queue message that carried it. */
  message_id: string;
}

/** The provider key the tests' SDK clients send in Authorization. */
export const PROVIDER_KEY = "sk-test-provider-key-0123456789";

const hex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");

/** A fresh, well-formed Sightline key: each test logs under its own key. */
export const newKey = () => `slk_${hex(24)}`;

/** A run id for `x-test-run`: groups what the upstream stand-in saw for one test. */
export const newRun = () => crypto.randomUUID();

type FetchFn = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** The proxy's handler with `overrides` on its env; `settled()` waits for its background work. */
export function directProxy(overrides: Partial<ProxyEnv> = {}): { fetch: FetchFn; settled(): Promise<void> } {
  const contexts: ExecutionContext[] = [];
  const fetch: FetchFn = async (input, init) => {
    const ctx = createExecutionContext();
    contexts.push(ctx);
    const request = new Request(input, init) as Request<unknown, IncomingRequestCfProperties>;
    return worker.fetch(request, { ...testEnv, ...overrides }, ctx);
  };
  return {
    fetch,
    async settled() {
      for (const ctx of contexts) await waitOnExecutionContext(ctx);
    },
  };
}

/** The official OpenAI SDK pointed at the proxy. */
export function openai(key: string, fetch: FetchFn, headers: Record<string, string> = {}, baseURL = "http://proxy.test/v1"): OpenAI {
  return new OpenAI({
    apiKey: PROVIDER_KEY,
    baseURL,
    defaultHeaders: { "X-Service-Key": key, ...headers },
    fetch: (url, init) => fetch(url as string, init as RequestInit),
    maxRetries: 0,
  });
}

/** Records the proxy queued for `key` (delivered by the real queue), waiting until there are `count`. */
export async function logsFor(key: string, count = 1, timeoutMs = 5_000): Promise<QueuedRecord[]> {
  const deadline = Date.now() + timeoutMs;
  const keyHash = await hashKey(key);
  for (;;) {
    const res = await testEnv.LOG_SINK.fetch(`http://log-sink/__records?key_hash=${keyHash}`);
    const records = ((await res.json()) as (Omit<QueuedRecord, "body"> & { record: Record<string, unknown> })[]).map(({ record, ...rest }) => ({
      ...rest,
      body: record,
    }));
    if (records.length >= count || Date.now() > deadline) return records;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Sets what the API stand-in's key check answers for `key` (see `KeyState`). */
export async function keyIs(key: string, state: KeyState): Promise<void> {
  await testEnv.API.fetch("http://api.test/__key", { method: "POST", body: JSON.stringify({ key, state }) });
}

/** How many key checks the API stand-in answered for `key`. */
export async function checksOf(key: string): Promise<number> {
  return (await (await testEnv.API.fetch(`http://api.test/__checks?key=${key}`)).json()) as number;
}

/** Requests the upstream stand-in saw with `x-test-run: run`. */
export async function upstreamSaw(run: string): Promise<SeenRequest[]> {
  return (await (await fetch(`${testEnv.TEST_UPSTREAM_URL}/__control/requests?run=${run}`)).json()) as SeenRequest[];
}

/** The recorded wire bytes of a fixture. */
export async function fixtureBytes(name: string): Promise<Uint8Array> {
  return new Uint8Array(await (await fetch(`${testEnv.TEST_UPSTREAM_URL}/__control/fixture/${name}`)).arrayBuffer());
}

/** Lets a gated upstream stream (`x-test-gate`) send the rest of its events. */
export async function release(gate: string): Promise<void> {
  await (await fetch(`${testEnv.TEST_UPSTREAM_URL}/__control/release/${gate}`, { method: "POST" })).body?.cancel();
}

/** A chat request body. */
export const chatBody = (extra: Record<string, unknown> = {}) => ({
  model: "gpt-4o-mini",
  messages: [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: "Say hello." },
  ],
  ...extra,
});

/** Raw POST to the proxy with the usual headers. */
export function post(fetch: FetchFn, path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`http://proxy.test${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${PROVIDER_KEY}`, "X-Service-Key": key, ...headers },
    body: JSON.stringify(body),
  });
}

/** Reads a whole body as bytes. */
export const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());
