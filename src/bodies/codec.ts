/**
 * How one body is stored: its JSON text (UTF-8), inline in PostgreSQL when small, else one
 * gzip member in an R2 object (docs/capture.md "Bodies in R2").
 */
/**
 * Largest body, in bytes of its JSON text (UTF-8), kept inline in `llm_requests` (1 KiB).
 * Below it a body costs less in the row than its pointer and an R2 read: a short chat turn or
 * answer is a few hundred bytes; gzip gains little on under 1 KiB of JSON (its own header and
 * trailer are 18 bytes); and the row stays well under PostgreSQL's TOAST threshold of about
 * 2 KB (`TOAST_TUPLE_THRESHOLD`, https://www.postgresql.org/docs/current/storage-toast.html),
 * so list and detail reads of it stay in the heap page. Above it, bodies go to R2.
 */
export const INLINE_BODY_BYTES = 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>; // a fresh buffer (typed ArrayBufferLike by the workers' types)
}

/** Whether a body of this JSON text is kept inline (`INLINE_BODY_BYTES`). */
export function isInline(bytes: Uint8Array): boolean {
  return bytes.byteLength <= INLINE_BODY_BYTES;
}

/** Bytes of everything `stream` yields. */
function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
  return new Response(stream).arrayBuffer().then((b) => new Uint8Array(b));
}

/** `bytes` as one gzip member (RFC 1952), with the runtime's CompressionStream. */
export function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  return drain(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")));
}

/** The UTF-8 text of one gzip member; throws on a corrupt member or invalid UTF-8. */
export async function gunzipText(member: Uint8Array<ArrayBuffer>): Promise<string> {
  return decoder.decode(await drain(new Blob([member]).stream().pipeThrough(new DecompressionStream("gzip"))));
}
