/**
 * Local stand-ins for the tests and the benchmark (node:http on 127.0.0.1, port 0):
 * - `startUpstream()`: replays recorded provider wire responses (test/fixtures) for the
 *   real provider SDKs (Anthropic, Cohere v1/v2, OpenAI-compatible proxy).
 * - `startStandInApi()`: records what `POST /internal/log` receives; answers are scripted.
 * - `closedPort()` and `silentApi()`: an API that is down (refused) or hung (never answers).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const FIXTURES = join(import.meta.dirname, "..", "fixtures");
/** Contents of a fixture file. */
export const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");

/** One request a stand-in received (`status`: what the stand-in API answered). */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: any;
  status?: number;
  /** `Date.now()` when it arrived. */
  at?: number;
}

async function readBody(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

async function listen(server: Server, port = 0): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections?.();
    server.close(() => resolve());
  });
}

/** A running stand-in. */
export interface StandIn {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** Writes `text` in small chunks with a pause between them, like a live stream. */
async function writeSlowly(res: ServerResponse, text: string, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    res.write(piece);
    await new Promise((r) => setTimeout(r, 2));
  }
  res.end();
  void text;
}

const sseChunks = (text: string) => text.split(/(?<=\n\n)/);

/**
 * Stand-in provider upstream. Special models: `error-429` answers a rate-limit error,
 * `error-400` an invalid-request error (each in the provider's error format).
 */
export async function startUpstream(): Promise<StandIn> {
  const received: Received[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = (req.url ?? "").split("?")[0] as string;
    received.push({ method: req.method ?? "", path, headers: req.headers, body });
    const json = (status: number, text: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "content-type": "application/json", ...headers });
      res.end(text);
    };
    if (path.endsWith("/v1/messages")) {
      if (body?.model === "error-429") return json(429, fixture("anthropic-error-429.json"), { "retry-after": "0", "x-should-retry": "false" });
      if (body?.model === "error-400")
        return json(400, JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "max_tokens: field required" } }));
      if (body?.stream) {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        return writeSlowly(res, "", sseChunks(fixture("anthropic-stream.sse")));
      }
      return json(200, fixture("anthropic-message.json"), { "request-id": "req_standin_1" });
    }
    if (path.endsWith("/v1/chat")) {
      if (body?.model === "error-400") return json(400, JSON.stringify({ message: "invalid request: message must not be empty" }));
      if (body?.stream) {
        res.writeHead(200, { "content-type": "application/stream+json" });
        return writeSlowly(res, "", fixture("cohere-v1-stream.jsonl").split(/(?<=\n)/));
      }
      return json(200, fixture("cohere-v1-chat.json"));
    }
    if (path.endsWith("/v2/chat")) {
      if (body?.stream) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        return writeSlowly(res, "", sseChunks(fixture("cohere-v2-stream.sse")));
      }
      return json(200, fixture("cohere-v2-chat.json"));
    }
    if (path.endsWith("/v1/chat/completions")) return json(200, fixture("openai-chat.json"));
    json(404, JSON.stringify({ error: "not found" }));
  });
  const url = await listen(server);
  return { url, received, close: () => close(server) };
}

/** Scripted answer of the stand-in API for the n-th (0-based) POST. */
export type Script = (n: number, body: any) => { status: number; headers?: Record<string, string>; body?: unknown };

/**
 * Stand-in Sightline API: records `POST /internal/log`; by default answers 202 `{id}`.
 * `logs()` gives every body received, `accepted()` those answered 2xx (what the real API
 * would have stored). `port`: listen there (default: any free port).
 */
export async function startStandInApi(
  script: Script = () => ({ status: 202 }),
  port = 0,
): Promise<StandIn & { logs: () => any[]; accepted: () => any[]; setScript(s: Script): void }> {
  const received: Received[] = [];
  let current = script;
  let n = 0;
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const answer = current(n++, body);
    received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, status: answer.status, at: Date.now() });
    res.writeHead(answer.status, { "content-type": "application/json", ...(answer.headers ?? {}) });
    res.end(
      JSON.stringify(
        answer.body ?? (answer.status < 300 ? { id: `00000000-0000-7000-8000-${String(n).padStart(12, "0")}` } : { detail: `status ${answer.status}` }),
      ),
    );
  });
  const url = await listen(server, port);
  const logs = () => received.filter((r) => r.path === "/internal/log" && r.method === "POST");
  return {
    url,
    received,
    logs: () => logs().map((r) => r.body),
    accepted: () =>
      logs()
        .filter((r) => (r.status ?? 0) < 300)
        .map((r) => r.body),
    setScript: (s) => {
      current = s;
      n = 0;
    },
    close: () => close(server),
  };
}

/** A loopback port with nothing listening (the API "down"). */
export async function closedPort(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await close(server);
  return url;
}

/**
 * An API that accepts TCP connections and never answers (a hung server or a black-holed
 * load balancer): requests to it only end by their own timeout. `connections` counts the
 * connections accepted, so a test can tell the library really reached it.
 */
export async function silentApi(): Promise<{ url: string; connections: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server = createNetServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => accepted,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Polls `check` every 20 ms until it is truthy or `timeoutMs` passes. */
export async function waitFor<T>(check: () => T | undefined | false, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("waitFor: timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
