/**
 * An OpenAI-compatible chat-completions endpoint for the guard-model tier's tests: a real Node
 * HTTP server on 127.0.0.1 (what vLLM or Ollama would be), answering `POST
 * /<mode>/<token>/v1/chat/completions` in the chat.completions wire format
 * (`{id, object: "chat.completion", model, choices: [{index, message: {role, content},
 * finish_reason}], usage}`). The first path segment says how it answers, the second names the
 * test's token; every request is recorded per token.
 *
 * - `/unsafe/<token>/v1`: a Llama Guard model (the request's `model` names one) answers
 *   "unsafe\nS2"; any other model `{"unsafe": true, "reason": "fake judge: unsafe"}`.
 * - `/safe/<token>/v1`: "safe", or `{"unsafe": false, "reason": "fake judge: safe"}`.
 * - `/fail/<token>/v1`: 500 with an OpenAI error object.
 * - `/garbage/<token>/v1`: 200 with prose instead of a verdict.
 * - `/hang/<token>/v1`: answers only after `HANG_MS` (longer than the tests' JUDGE_TIMEOUT_MS).
 * `GET /__received/<token>` answers the recorded requests as JSON (`JudgeReceived[]`).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody, startLoopbackServer } from "./loopback-server.ts";

/** How long `/hang/` keeps a request waiting, ms. */
export const HANG_MS = 4_000;

/** One request the fake endpoint got: its path, authorization header and JSON body. */
export interface JudgeReceived {
  path: string;
  authorization: string | null;
  body: { model: string; messages: Array<{ role: string; content: string }>; response_format?: { type: string }; temperature?: number };
}

const received = new Map<string, JudgeReceived[]>();

/** A chat.completions answer carrying `content`. */
const completion = (model: string, content: string) => ({
  id: "chatcmpl-fake",
  object: "chat.completion",
  created: 1_764_200_000,
  model,
  choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
  usage: { prompt_tokens: 250, completion_tokens: 10, total_tokens: 260 },
});

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const [, mode = "", token = ""] = (req.url ?? "/").split("?")[0]!.split("/");
  if (req.method === "GET" && mode === "__received") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(received.get(token) ?? []));
    return;
  }
  const body = JSON.parse(await readBody(req)) as JudgeReceived["body"];
  received.set(token, [...(received.get(token) ?? []), { path: req.url ?? "", authorization: req.headers.authorization ?? null, body }]);
  const guard = /llama[-_ ]?guard/i.test(body.model);
  const json = (status: number, value: unknown) => void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(value));
  if (mode === "fail") return json(500, { error: { message: "The server had an error while processing your request.", type: "server_error" } });
  if (mode === "garbage") return json(200, completion(body.model, "Let me think about this conversation carefully."));
  if (mode === "hang") {
    setTimeout(() => json(200, completion(body.model, "safe")), HANG_MS);
    return;
  }
  const unsafe = mode === "unsafe";
  const content = guard ? (unsafe ? "unsafe\nS2" : "safe") : JSON.stringify({ unsafe, reason: `fake judge: ${unsafe ? "unsafe" : "safe"}` });
  json(200, completion(body.model, content));
}

let started: Promise<string> | undefined;

/** Starts the fake endpoint once per process; resolves to its base URL (`http://127.0.0.1:<port>`). */
export function startJudgeServer(): Promise<string> {
  started ??= startLoopbackServer(handle);
  return started;
}
