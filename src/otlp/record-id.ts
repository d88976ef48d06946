/**
 * The stored id of a span's call: the idempotency key of OTLP ingest. A retried export carries
 * the same spans, so the same ids, and the batch ingest statement skips ids already stored
 * (src/db/ingest-batch.ts), as it does for the proxy's redelivered records.
 */
import { toHex } from "../util";

/**
 * A UUIDv8 (RFC 9562 section 5.8, "custom") of SHA-256(`projectId:traceId:spanId`): the same
 * span of the same project always maps to the same row, and two projects never share one. With
 * the span's start `startMs` (Unix ms, the stored call's `created_at`), its first 48 bits are that
 * time, laid out as a UUIDv7's, and 74 bits of the digest follow, so reads by id find the call's
 * month at once (src/db/request-time.ts); without it, the first 122 bits of the digest. Ids are
 * lowercase hex as `OtlpSpan` holds them.
 */
export async function spanRecordId(projectId: string, traceId: string, spanId: string, startMs?: number): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${projectId}:${traceId}:${spanId}`));
  const b = new Uint8Array(digest, 0, 16);
  if (startMs !== undefined && startMs >= 0 && startMs < 2 ** 48) {
    for (let i = 0; i < 6; i++) b[i] = Math.floor(startMs / 2 ** (8 * (5 - i))) % 256;
  }
  b[6] = 0x80 | (b[6]! & 0x0f); // version 8
  b[8] = 0x80 | (b[8]! & 0x3f); // variant 10
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
