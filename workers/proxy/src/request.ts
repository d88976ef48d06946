/**
 * Reads the application's request body once: the exact bytes go upstream, and a JSON copy
 * goes to the log. Non-JSON bodies (multipart uploads, files) are streamed upstream without
 * buffering and logged as a summary.
 */

type Json = Record<string, unknown>;

/** The body to forward and its logged form. */
export interface RequestBody {
  forward: ArrayBuffer | ReadableStream<Uint8Array> | null;
  logged: Json;
}

const isJsonType = (type: string) => type === "" || type === "application/json" || type.endsWith("+json");

/** Splits the request body into what is forwarded and what is logged. */
export async function readRequestBody(request: Request): Promise<RequestBody> {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return { forward: null, logged: {} };
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!isJsonType(type)) {
    const size = Number(request.headers.get("content-length") ?? NaN);
    return { forward: request.body, logged: { content_type: type, ...(Number.isFinite(size) ? { size_bytes: size } : {}) } };
  }
  const bytes = await request.arrayBuffer();
  const text = new TextDecoder().decode(bytes);
  try {
    const parsed: unknown = JSON.parse(text);
    return { forward: bytes, logged: typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Json) : { body: parsed } };
  } catch {
    return { forward: bytes, logged: text === "" ? {} : { raw_text: text.slice(0, 64 * 1024) } };
  }
}
