/**
 * Reads the application's request body once: the exact bytes go upstream, and a JSON copy
 * goes to the log. Non-JSON bodies (multipart uploads, files) are streamed upstream without
 * buffering and logged as a summary.
 *
 * The JSON copy is decoded and parsed only when the log asks for it (`logged()`, called after
 * the response, in `waitUntil`): forwarding never waits for a parse (a 100 KB prompt takes
 * ~0.2-0.5 ms to decode and parse).
 */
import { isObject } from "../../../src/util";

type Json = Record<string, unknown>;

/** The body to forward and its logged form. */
export interface RequestBody {
  forward: ArrayBuffer | ReadableStream<Uint8Array> | null;
  /**
   * The logged form: the parsed JSON object; `{body}` for JSON that is not an object,
   * `{raw_text}` (first 64 Ki characters) for a body that is not JSON, `{content_type,
   * size_bytes}` for a non-JSON type, `{}` for no body. Parsed on the first call; never throws.
   */
  logged(): Json;
}

const isJsonType = (type: string) => type === "" || type === "application/json" || type.endsWith("+json");

/** Logged form of a JSON request body's bytes (see `RequestBody.logged`). */
function parseLogged(bytes: ArrayBuffer): Json {
  const text = new TextDecoder().decode(bytes);
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : { body: parsed };
  } catch {
    return text === "" ? {} : { raw_text: text.slice(0, 64 * 1024) };
  }
}

/** Splits the request body into what is forwarded and what is logged. */
export async function readRequestBody(request: Request): Promise<RequestBody> {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return { forward: null, logged: () => ({}) };
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!isJsonType(type)) {
    const size = Number(request.headers.get("content-length") ?? NaN);
    const summary = { content_type: type, ...(Number.isFinite(size) ? { size_bytes: size } : {}) };
    return { forward: request.body, logged: () => summary };
  }
  const bytes = await request.arrayBuffer();
  let parsed: Json | undefined;
  return { forward: bytes, logged: () => (parsed ??= parseLogged(bytes)) };
}
