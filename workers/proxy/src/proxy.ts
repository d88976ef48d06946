/**
 * One proxied call: check the Sightline key's format, start its check with the API
 * (key-check.ts) and, in parallel, choose the upstream and forward; the response waits for
 * the check, so a refused key gets 401 (403 without the `ingest` scope) before any byte (and
 * the upstream call is cancelled).
 * Otherwise the answer streams back while a copy is collected (a small JSON answer is read
 * whole and sent as one body); when it ends (or the client goes away) the log record is built
 * and queued (enqueue-record.ts) inside `ctx.waitUntil`, after the client has its bytes.
 *
 * Only POST calls are logged (chat, completions, responses, embeddings, ...); GET, HEAD,
 * DELETE and OPTIONS calls (`/v1/models`, file listings, preflights) pass through unlogged.
 */
import { KEY_PATTERN } from "../../../src/auth/keys";
import { buildLogRecord, type CallRecord } from "./log-record";
import { createCollector, type Collector } from "./collect";
import { enqueueRecord } from "./enqueue-record";
import type { ProxyConfig } from "./config";
import { fitRecord } from "./fit";
import { checkKey } from "./key-check";
import { fetchUpstream } from "./forward";
import { clientResponseHeaders, SERVICE_KEY_HEADER, SESSION_HEADER, secretValues, upstreamRequestHeaders } from "./headers";
import { readRequestBody, type RequestBody } from "./request";
import { isRefusal, resolveUpstream, type UpstreamTarget } from "./upstreams";
import { tapStream, type TapOutcome } from "./tap";
import { logError } from "../../../src/logger";

/** Statuses whose response has no body (RFC 9110 §15.3.5, §15.3.6, §15.4.5). */
const NULL_BODY = new Set([101, 204, 205, 304]);

/**
 * A proxy-made error: `{"detail": ...}` like every Sightline error, plus the same text in
 * OpenAI's error envelope (`{"error": {message, type, param, code}}`, OpenAI API reference,
 * "Error codes"), which OpenAI-compatible SDKs read: without it the openai SDK reports
 * "401 status code (no body)". `type` is "sightline_proxy_error" so the application can tell
 * the proxy's refusals from the provider's; `code` is "invalid_sightline_key" on 401.
 */
export const detailResponse = (status: number, detail: string) =>
  Response.json(
    { detail, error: { message: detail, type: "sightline_proxy_error", param: null, code: status === 401 ? "invalid_sightline_key" : null } },
    { status },
  );

/** The request side of a call, known before the upstream answers. */
interface CallStart {
  startedAt: number;
  method: string;
  target: UpstreamTarget;
  request: RequestBody;
  /** The `X-Sightline-Session-Id` header, if any. */
  sessionId: string | undefined;
}

/** How a call ended: the rest of its CallRecord. */
type CallEnd = Omit<CallRecord, "startedAt" | "method" | "target" | "requestBody" | "sessionId">;

/**
 * Builds, fits and queues the record of an ended call (the request body is parsed here, after
 * the response). Never throws.
 */
async function logCall(start: CallStart, end: CallEnd, config: ProxyConfig, key: string, secrets: string[]): Promise<void> {
  let context = { model: "unknown", endpoint: start.target.url.pathname };
  try {
    const { startedAt, method, target, sessionId } = start;
    const record = await buildLogRecord({ startedAt, method, target, sessionId, requestBody: start.request.logged(), ...end });
    context = { model: record.model, endpoint: context.endpoint };
    const { json } = fitRecord(record as Record<string, unknown>, secrets, (r) => {
      (r.metadata as Record<string, unknown>).truncated = true;
    });
    await enqueueRecord(config.logRecords, key, json, context);
  } catch (err) {
    logError("log record could not be built", context, err);
  }
}

/** Handles one request to the proxy. */
export async function handleProxy(request: Request, config: ProxyConfig, ctx: ExecutionContext): Promise<Response> {
  const startedAt = Date.now();
  const key = request.headers.get(SERVICE_KEY_HEADER)?.trim();
  if (!key) return detailResponse(401, "missing X-Service-Key: send your Sightline API key in the X-Service-Key header");
  if (!KEY_PATTERN.test(key)) return detailResponse(401, "X-Service-Key is not a Sightline API key (slk_ + 48 hex characters)");
  if (request.headers.get("upgrade")?.toLowerCase() === "websocket")
    return detailResponse(501, "WebSocket APIs (e.g. the Realtime API) are not proxied; connect to the provider directly");

  const target = resolveUpstream(request, config);
  if (isRefusal(target)) return detailResponse(target.status, target.detail);

  // The key check runs while the request is read and forwarded; a refusal cancels the upstream call.
  const verdict = checkKey(config.api, key, config.keyCheckTimeoutMs, (p) => ctx.waitUntil(p));
  const refused = new AbortController();
  void verdict.then((v) => v.status === "refused" && refused.abort());

  const logged = request.method === "POST";
  const body = await readRequestBody(request);
  // Only a logged call's record is scrubbed of the headers' secrets.
  const secrets = logged ? secretValues(request.headers) : [];
  const upstream = await fetchUpstream(
    target.url,
    { method: request.method, headers: upstreamRequestHeaders(request.headers), body: body.forward },
    config.upstreamTimeoutMs,
    refused.signal,
  );
  const checked = await verdict;
  if (checked.status === "refused") {
    if ("response" in upstream) await upstream.response.body?.cancel().catch(() => {});
    return detailResponse(checked.httpStatus, checked.detail);
  }
  if (checked.status === "unchecked") logError("key check unavailable; call forwarded (fail open)", { reason: checked.reason });
  const sessionId = request.headers.get(SESSION_HEADER) ?? undefined;
  const base: CallStart = { startedAt, method: request.method, target, request: body, sessionId };

  if ("failure" in upstream) {
    if (logged) ctx.waitUntil(logCall(base, { failure: upstream.failure, endedAt: Date.now(), outcome: "error" }, config, key, secrets));
    return detailResponse(502, `upstream request failed: ${upstream.failure.message}`);
  }

  const { response, headersAt } = upstream;
  const init = { status: response.status, statusText: response.statusText, headers: clientResponseHeaders(response.headers) };
  if (!logged) return new Response(response.body, init);
  if (!response.body || NULL_BODY.has(response.status)) {
    const meta = { status: response.status, headers: response.headers, headersAt };
    ctx.waitUntil(logCall(base, { response: meta, endedAt: headersAt, outcome: "complete" }, config, key, secrets));
    return new Response(NULL_BODY.has(response.status) ? null : response.body, init);
  }
  const capture: Capture = { response, headersAt, base, config, ctx, key, secrets };
  if (smallJson(response.headers)) return bufferedJson(capture, init);
  return new Response(captureBody(capture), init);
}

/**
 * A call whose upstream answered with a body to capture: the answer, when its headers arrived,
 * the request side and route (`base`), and what logging it needs.
 */
interface Capture {
  response: Response;
  headersAt: number;
  base: CallStart;
  config: ProxyConfig;
  ctx: ExecutionContext;
  key: string;
  secrets: string[];
}

/** Logs an ended call (in waitUntil, after the client's bytes): collects, builds, queues. */
function logEnded(
  { response, headersAt, base, config, key, secrets }: Capture,
  end: { collector: Collector; firstByteAt: number | undefined; endedAt: number; outcome: TapOutcome; error?: unknown },
): Promise<void> {
  let collected: ReturnType<Collector["finish"]> | undefined;
  try {
    collected = end.collector.finish();
  } catch (err) {
    logError("capture failed; response body not logged", {}, err);
  }
  const ending: CallEnd = {
    response: { status: response.status, headers: response.headers, headersAt },
    collected,
    firstByteAt: end.firstByteAt,
    endedAt: end.endedAt,
    outcome: end.outcome,
    streamError: end.error,
  };
  return logCall(base, ending, config, key, secrets);
}

/**
 * A small JSON answer (smallJson): read whole, then sent as one fixed-length body; the log
 * gets the same bytes. Such an answer is complete when its headers arrive (non-streamed
 * completions), so reading it first costs the client nothing and spares a stream pump per
 * chunk. A body that fails mid-way gets 502 (and is logged as an error).
 */
async function bufferedJson(capture: Capture, init: ResponseInit): Promise<Response> {
  const { response, ctx } = capture;
  const collector = createCollector(response.headers.get("content-type"));
  let bytes: ArrayBuffer;
  try {
    bytes = await response.arrayBuffer();
  } catch (err) {
    ctx.waitUntil(logEnded(capture, { collector, firstByteAt: undefined, endedAt: Date.now(), outcome: "error", error: err }));
    return detailResponse(502, "the upstream response body failed before it was complete");
  }
  const endedAt = Date.now();
  ctx.waitUntil(
    (async () => {
      await yieldToIo();
      collector.push(new Uint8Array(bytes));
      await logEnded(capture, { collector, firstByteAt: endedAt, endedAt, outcome: "complete" });
    })(),
  );
  return new Response(bytes, init);
}

/**
 * Largest JSON body (by Content-Length) read whole before it is sent on (bufferedJson): 1 MiB.
 * Streams and larger or unsized bodies go through the tap (tap.ts), which forwards each chunk
 * as it comes and also sees a client going away.
 */
const BUFFERED_JSON_MAX_BYTES = 1024 * 1024;

/** True for a JSON body with a Content-Length of at most BUFFERED_JSON_MAX_BYTES. */
function smallJson(headers: Headers): boolean {
  const type = (headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  const length = Number(headers.get("content-length") ?? NaN);
  return (type === "application/json" || type.endsWith("+json")) && Number.isFinite(length) && length <= BUFFERED_JSON_MAX_BYTES;
}

/** Resolves after pending I/O: a timer is a macrotask in workerd's event loop. */
const yieldToIo = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Taps the body for the collector as it streams to the client; logs once it ends. */
function captureBody(capture: Capture): ReadableStream<Uint8Array> {
  const { response, ctx } = capture;
  const collector = createCollector(response.headers.get("content-type"));
  let firstByteAt: number | undefined;
  let ended!: (end: { outcome: TapOutcome; error?: unknown }) => void;
  const done = new Promise<{ outcome: TapOutcome; error?: unknown }>((resolve) => (ended = resolve));
  const stream = tapStream(response.body!, {
    chunk(bytes: Uint8Array) {
      firstByteAt ??= Date.now();
      collector.push(bytes);
    },
    end(outcome: TapOutcome, error?: unknown) {
      ended({ outcome, error });
    },
  });
  ctx.waitUntil(
    done.then(async ({ outcome, error }) => {
      const endedAt = Date.now();
      // The end is seen as the last chunk is handed over, before the runtime has written it;
      // building the record is CPU work, so let that write (the client's bytes) go first.
      await yieldToIo();
      return logEnded(capture, { collector, firstByteAt, endedAt, outcome, error });
    }),
  );
  return stream;
}
