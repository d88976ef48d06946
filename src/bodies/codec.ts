/**
 * How one body is stored: its JSON text (UTF-8), inline in PostgreSQL when small, else one
 * gzip member in an R2 object (docs/capture.md "Bodies in R2").
 */
import { gunzipSync, gzipSync } from "node:zlib";

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

/** `bytes` as one gzip member (RFC 1952), deflated by the runtime's native zlib (`node:zlib`). */
export function gzip(bytes: Uint8Array): Uint8Array {
  return gzipSync(bytes);
}

/**
 * The UTF-8 text of one gzip member; throws on a corrupt member (bad header, data or CRC-32)
 * or invalid UTF-8. Inflated synchronously by the runtime's native zlib (`node:zlib`, on by
 * default from compatibility date 2026-08-04): an export inflates one member per body, and a
 * `DecompressionStream` per member (a stream, a Blob and a Response each) cost several times the
 * CPU of the inflate itself (bench/results/scale.md "Export").
 */
export function gunzipText(member: Uint8Array): string {
  return decoder.decode(gunzipSync(member));
}
