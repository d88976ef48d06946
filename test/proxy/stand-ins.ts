/**
 * Node-side stand-ins for the proxy tests, started by the `proxy` project in vitest.config.ts:
 *
 * - an upstream provider: a real HTTP server on 127.0.0.1 that replays the recorded OpenAI
 *   wire responses of test/fixtures/openai/ (JSON bodies whole, SSE one event per write);
 * - the API worker: a Miniflare service-binding function that answers the key check
 *   (GET /internal/keys/check) and records each POST /internal/log.
 *
 * Tests steer the upstream with request headers the proxy forwards unchanged
 * (`x-test-fixture`, `x-test-run`, `x-test-gate`, ...) and read what both stand-ins saw
 * through control routes (`/__control/...` on the upstream, `/__records` on the API binding).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { bigAnswer, type BigAnswerKind } from "./big-answers.ts";

const FIXTURES = join(import.meta.dirname, "../fixtures/openai");

/** One recorded wire response (test/fixtures/openai/manifest.json). */
interface Fixture {
  status: number;
  headers: Record<string, string>;
  file: string;
}

const manifest = JSON.parse(readFileSync(join(FIXTURES, "manifest.json"), "utf8")) as Record<string, Fixture>;
const fixtureBytes = (name: string) => readFileSync(join(FIXTURES, manifest[name]!.file));

/** What the upstream saw of one request. */
export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The client (the proxy) closed the connection before the response ended. */
  closedEarly: boolean;
}

const seen = new Map<string, SeenRequest[]>();
const gates = new Map<string, () => void>();
const gateWaiters = new Map<string, Promise<void>>();

function gate(id: string): Promise<void> {
  let promise = gateWaiters.get(id);
  if (!promise) {
    promise = new Promise<void>((resolve) => gates.set(id, resolve));
    gateWaiters.set(id, promise);
  }
  return promise;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

function control(_req: IncomingMessage, res: ServerResponse, url: URL): void {
  const [, , what, arg = ""] = url.pathname.split("/");
  if (what === "fixture" && manifest[arg]) {
    res.writeHead(200, { "content-type": "application/octet-stream" }).end(fixtureBytes(arg));
  } else if (what === "requests") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen.get(url.searchParams.get("run") ?? "") ?? []));
  } else if (what === "release") {
    void gate(arg);
    gates.get(arg)!();
    res.writeHead(204).end();
  } else {
    res.writeHead(404).end();
  }
}

/** Replays SSE events one write each; `x-test-gate` holds the rest after the first event. */
async function replaySse(req: IncomingMessage, res: ServerResponse, events: string[], entry: SeenRequest): Promise<void> {
  const gateId = req.headers["x-test-gate"] as string | undefined;
  const pace = Number(req.headers["x-test-pace-ms"] ?? 0);
  for (let i = 0; i < events.length; i++) {
    if (entry.closedEarly) return;
    res.write(events[i]);
    if (i === 0 && gateId) await gate(gateId);
    else if (pace > 0) await sleep(pace);
  }
  res.end();
}

/**
 * Content of chunk `i` of a `unicode` big stream: `size` UTF-16 units cycling through 1-, 2-,
 * 3- and 4-byte UTF-8 characters, quotes, backslashes and newlines (JSON-escaped on the wire),
 * so network and read boundaries fall inside characters and escapes.
 */
export function unicodeChunk(i: number, size: number): string {
  const alphabet = ["a", "é", "€", "𝄞", '"', "\\", "\n", "z", "ß", "中"];
  let out = "";
  for (let k = 0; out.length < size; k++) out += alphabet[(i + k) % alphabet.length];
  return out.slice(0, size - (/[\ud800-\udbff]$/.test(out.slice(0, size)) ? 1 : 0));
}

/** SSE events of a chat completion stream whose content arrives in `contents`, then [DONE]. */
function streamOf(contents: Iterable<string>): string[] {
  const head = {
    id: "chatcmpl-Big0",
    object: "chat.completion.chunk",
    created: 1763683200,
    model: "gpt-4o-mini-2024-07-18",
    system_fingerprint: "fp_34a54ae93c",
  };
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const events = [chunk({ role: "assistant", content: "" })];
  for (const content of contents) events.push(chunk({ content }));
  events.push(chunk({}, "length"), "data: [DONE]\n\n");
  return events;
}

/** Events of a generated long stream: `n` content chunks of `size` characters, then [DONE]. */
function bigStream(n: number, size: number, unicode = false): string[] {
  return streamOf(Array.from({ length: n }, (_, i) => (unicode ? unicodeChunk(i, size) : String(i % 10).repeat(size))));
}

/**
 * `x-test-big-answer: words|numbers` (test/proxy/big-answers.ts): a chat completion whose answer
 * is that text, as one JSON body, or as SSE in 10,000-character chunks when the request asked
 * for `stream: true`.
 */
function replayBigAnswer(req: IncomingMessage, res: ServerResponse, entry: SeenRequest, kind: BigAnswerKind): Promise<void> | void {
  const text = bigAnswer(kind);
  if ((JSON.parse(entry.body || "{}") as { stream?: boolean }).stream) {
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    const chunks = Array.from({ length: Math.ceil(text.length / 10_000) }, (_, i) => text.slice(i * 10_000, (i + 1) * 10_000));
    return replaySse(req, res, streamOf(chunks), entry);
  }
  const body = JSON.parse(fixtureBytes("chat-completion").toString("utf8")) as { choices: { message: { content: string } }[] };
  body.choices[0]!.message.content = text;
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
}

async function upstream(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", "http://upstream");
  if (url.pathname.startsWith("/__control/")) return control(req, res, url);
  const entry: SeenRequest = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: await readBody(req), closedEarly: false };
  const run = (req.headers["x-test-run"] as string | undefined) ?? "";
  seen.set(run, [...(seen.get(run) ?? []), entry]);
  res.on("close", () => {
    if (!res.writableFinished) entry.closedEarly = true;
  });
  if (req.headers["x-test-hang"]) return; // never answers: the proxy's timeout must fire

  // `x-test-echo-headers`: a chat completion that echoes the request's headers, in its text and
  // as a JSON object (as httpbin-style gateways and some error bodies do).
  if (req.headers["x-test-echo-headers"]) {
    const body = JSON.parse(fixtureBytes("chat-completion").toString("utf8")) as Record<string, unknown> & { choices: { message: { content: string } }[] };
    body.choices[0]!.message.content = `You sent: ${JSON.stringify(req.headers)}`;
    body.echo = { headers: req.headers };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    return;
  }
  const bigKind = req.headers["x-test-big-answer"] as BigAnswerKind | undefined;
  if (bigKind) return replayBigAnswer(req, res, entry, bigKind);
  const big = req.headers["x-test-big-stream"] as string | undefined;
  if (big) {
    const [n, size] = big.split("x").map(Number);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
    return replaySse(req, res, bigStream(n!, size!, req.headers["x-test-big-stream-text"] === "unicode"), entry);
  }
  const name = (req.headers["x-test-fixture"] as string | undefined) ?? (url.pathname.endsWith("/embeddings") ? "embeddings" : "chat-completion");
  const fixture = manifest[name];
  if (!fixture) {
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no fixture ${name}`, type: "invalid_request_error" } }));
    return;
  }
  // `x-test-model` swaps the recorded model name, e.g. for a model no price list knows.
  const model = req.headers["x-test-model"] as string | undefined;
  const bytes = model ? Buffer.from(fixtureBytes(name).toString("utf8").replaceAll("gpt-4o-mini-2024-07-18", model)) : fixtureBytes(name);
  if (fixture.headers["content-type"]?.startsWith("text/event-stream")) {
    res.writeHead(fixture.status, fixture.headers);
    const events = bytes.toString("utf8").split(/(?<=\n\n)/);
    return replaySse(req, res, events, entry);
  }
  const gzip = req.headers["x-test-gzip"] && /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
  const body = gzip ? gzipSync(bytes) : bytes;
  res.writeHead(fixture.status, { ...fixture.headers, ...(gzip ? { "content-encoding": "gzip" } : {}), "content-length": String(body.byteLength) });
  // `x-test-truncate`: half the announced body, then the connection is cut.
  if (req.headers["x-test-truncate"]) {
    res.write(body.subarray(0, body.byteLength >> 1), () => res.destroy());
    return;
  }
  res.end(body);
}

/** What the API stand-in does for a key: answer with a status, hang, or throw. */
type Behaviour = { status: number } | { hang: true } | { throw: true };

/**
 * What the stand-in's key check knows of a key (unset: a live key). `refuse` answers 401 as the
 * real route does; `expiresAt` (epoch ms) models a rotated key, refused from then on;
 * `delayMs` holds the answer; `status`/`hang`/`throw` make the check itself fail.
 */
export interface KeyState {
  refuse?: "unknown" | "revoked";
  /** The key is valid but lacks the `ingest` scope: the check answers 403, as the real route does. */
  noIngest?: true;
  expiresAt?: number;
  delayMs?: number;
  status?: number;
  hang?: true;
  throw?: true;
}

/** One POST /internal/log the API stand-in received. */
export interface LoggedCall {
  headers: Record<string, string>;
  body: Record<string, unknown>;
  bytes: number;
}

const logs = new Map<string, LoggedCall[]>();
const behaviours = new Map<string, Behaviour>();
const keyStates = new Map<string, KeyState>();
const checks = new Map<string, number>();

/** The 401 details of the real route (workers/api/src/middleware/credentials.ts). */
const REFUSED = { unknown: "invalid API key", revoked: "API key has been revoked", expired: "API key has expired (it was rotated)" };

/** GET /internal/keys/check with the real route's wire shape: 200 `{project_id}`, 401 `{detail}`, or 403 `{detail}` for a key without the `ingest` scope. */
async function keyCheck(key: string): Promise<Response> {
  checks.set(key, (checks.get(key) ?? 0) + 1);
  const state = keyStates.get(key) ?? {};
  if (state.delayMs) await sleep(state.delayMs);
  if (state.hang) return new Promise<Response>(() => {});
  if (state.throw) throw new Error("API stand-in exploded");
  if (state.status) return Response.json({ detail: `stand-in refused with ${state.status}` }, { status: state.status });
  const reason = state.refuse ?? (state.expiresAt !== undefined && Date.now() >= state.expiresAt ? "expired" : undefined);
  if (reason) return Response.json({ detail: REFUSED[reason] }, { status: 401, headers: { "WWW-Authenticate": "Bearer" } });
  if (state.noIngest) return Response.json({ detail: "this API key lacks the ingest scope" }, { status: 403 });
  return Response.json({ project_id: "00000000-0000-7000-8000-000000000001" });
}

/**
 * The `API` service binding: answers GET /internal/keys/check (every key is live unless
 * `/__key` set its state), records POST /internal/log per X-Service-Key and answers 202 (or
 * what `/__behave` set for that key). `GET /__records?key=` lists a key's records,
 * `GET /__checks?key=` counts its key checks.
 */
export async function apiStandIn(request: Request): Promise<Response> {
  const url = new URL(request.url);
  if (url.pathname === "/__records") return Response.json(logs.get(url.searchParams.get("key") ?? "") ?? []);
  if (url.pathname === "/__checks") return Response.json(checks.get(url.searchParams.get("key") ?? "") ?? 0);
  if (url.pathname === "/__behave") {
    const { key, behaviour } = (await request.json()) as { key: string; behaviour: Behaviour };
    behaviours.set(key, behaviour);
    return new Response(null, { status: 204 });
  }
  if (url.pathname === "/__key") {
    const { key, state } = (await request.json()) as { key: string; state: KeyState };
    keyStates.set(key, state);
    return new Response(null, { status: 204 });
  }
  const key = request.headers.get("x-service-key") ?? "";
  if (url.pathname === "/internal/keys/check" && request.method === "GET") return keyCheck(key);
  const text = await request.text();
  const behaviour = behaviours.get(key);
  if (behaviour && "hang" in behaviour) return new Promise<Response>(() => {});
  if (behaviour && "throw" in behaviour) throw new Error("API stand-in exploded");
  if (behaviour && "status" in behaviour) return Response.json({ detail: `stand-in refused with ${behaviour.status}` }, { status: behaviour.status });
  if (url.pathname !== "/internal/log" || request.method !== "POST") return Response.json({ detail: "not found" }, { status: 404 });
  logs.set(key, [
    ...(logs.get(key) ?? []),
    { headers: Object.fromEntries(request.headers), body: JSON.parse(text) as Record<string, unknown>, bytes: Buffer.byteLength(text) },
  ]);
  return Response.json({ id: crypto.randomUUID() }, { status: 202 });
}

let started: Promise<{ upstreamUrl: string; closedUrl: string }> | undefined;

/** Starts the upstream once per process; `closedUrl` is a loopback port nothing listens on. */
export function startStandIns(): Promise<{ upstreamUrl: string; closedUrl: string }> {
  started ??= new Promise((resolve) => {
    const server = createServer((req, res) => {
      upstream(req, res).catch((err) => {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(err));
      });
    });
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const closedPort = (probe.address() as AddressInfo).port;
        probe.close();
        resolve({ upstreamUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closedUrl: `http://127.0.0.1:${closedPort}` });
      });
    });
  });
  return started;
}
