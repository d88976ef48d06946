/**
 * A webhook endpoint for the alert tests: a real Node HTTP server on 127.0.0.1 (the network
 * target the delivery worker POSTs to). The first path segment says how it answers, the second
 * names the test's token; every request is recorded per token.
 *
 * - `/ok/<token>`: 204.
 * - `/fail/<token>`: 500 every time.
 * - `/fail-once/<token>`: 500 the first time, then 204.
 * - `/hang-once/<token>`: the first time, answers only after `HANG_MS` (longer than the tests'
 *   WEBHOOK_TIMEOUT_MS); then 204.
 * - `/gone/<token>`: 410 (a permanent refusal).
 * `GET /__received/<token>` answers the recorded requests as JSON (`Received[]`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, startLoopbackServer } from "./loopback-server.ts";

/** How long `/hang-once/` keeps the first request waiting, ms. */
export const HANG_MS = 3_000;

/** One request the receiver got. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

const received = new Map<string, Received[]>();

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, mode = "", token = ""] = (req.url ?? "/").split("?")[0]!.split("/");
  if (req.method === "GET" && mode === "__received") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(token) ?? []));
    return;
  }
  const body = await readBody(req);
  const seen = received.get(token) ?? [];
  received.set(token, [...seen, { path: req.url ?? "", headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body }]);
  const first = seen.length === 0;
  if (mode === "fail" || (mode === "fail-once" && first)) return void res.writeHead(500).end("boom");
  if (mode === "gone") return void res.writeHead(410).end();
  if (mode === "hang-once" && first) {
    setTimeout(() => res.writeHead(204).end(), HANG_MS);
    return;
  }
  res.writeHead(204).end();
}

let started: Promise<string> | undefined;

/** Starts the receiver once per process; resolves to its base URL (`http://127.0.0.1:<port>`). */
export function startWebhookReceiver(): Promise<string> {
  started ??= startLoopbackServer(handle);
  return started;
}
