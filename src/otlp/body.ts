/**
 * The body of an OTLP/HTTP export as bytes, and the encoding it is in (OTLP specification,
 * "OTLP/HTTP Request"): `Content-Type` `application/x-protobuf` (binary protobuf) or
 * `application/json` (OTLP/JSON); `Content-Encoding` `gzip` or none. The app's body limit
 * (`LOG_MAX_BYTES`) counts the bytes on the wire; the same limit applies again to the
 * decompressed body, so a small gzip bomb is refused (413) before it is held in memory.
 */
import { ApiError } from "../http/errors";

/** The two OTLP/HTTP encodings. */
export type OtlpEncoding = "protobuf" | "json";

/** The encoding named by a `Content-Type` header; 415 `{detail}` for any other media type. */
export function encodingOf(contentType: string | undefined): OtlpEncoding {
  const mediaType = (contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/x-protobuf" || mediaType === "application/protobuf") return "protobuf";
  if (mediaType === "application/json") return "json";
  throw new ApiError(415, `unsupported Content-Type "${mediaType}": send application/x-protobuf or application/json (OTLP/HTTP)`);
}

/**
 * Reads `body` (decompressing it when `contentEncoding` is `gzip`) into bytes. Throws 413 when the
 * decompressed body passes `maxBytes`, 415 for another content encoding, 400 for a corrupt gzip stream.
 */
export async function readOtlpBody(body: ReadableStream<Uint8Array> | null, contentEncoding: string | undefined, maxBytes: number): Promise<Uint8Array> {
  if (body === null) return new Uint8Array();
  const encoding = (contentEncoding ?? "").trim().toLowerCase();
  if (encoding !== "" && encoding !== "identity" && encoding !== "gzip") {
    throw new ApiError(415, `unsupported Content-Encoding "${encoding}": send gzip or none`);
  }
  // The cast names the pair it is: the DOM library (the dashboard's browser typecheck reads this
  // file through the server's app type) types DecompressionStream's input as any BufferSource.
  const stream = encoding === "gzip" ? body.pipeThrough(new DecompressionStream("gzip") as TransformStream<Uint8Array, Uint8Array>) : body;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new ApiError(413, `request body is larger than the limit of ${maxBytes} bytes (after decompression)`);
      }
      chunks.push(value);
    }
  } catch (err) {
    // The app's wire limit (hono's BodyLimitError, answered 413 by its middleware) and our own pass through.
    if (err instanceof ApiError || (err as Error)?.name === "BodyLimitError" || encoding !== "gzip") throw err;
    throw new ApiError(400, "the gzip body could not be decompressed");
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
