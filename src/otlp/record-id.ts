/**
 * The stored id of a span's call: the idempotency key of OTLP ingest. A retried export carries
 * the same spans, so the same ids, and the batch ingest statement skips ids already stored
 * (src/db/ingest-batch.ts), as it does for the proxy's redelivered records.
 */
import { toHex } from "../util";

/**
 * A UUIDv8 (RFC 9562 section 5.8, "custom") made of the first 122 bits of
 * SHA-256(`projectId:traceId:spanId`): the same span of the same project always maps to the
 * same row, and two projects never share one. Ids are lowercase hex as `OtlpSpan` holds them.
 */
export async function spanRecordId(projectId: string, traceId: string, spanId: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${projectId}:${traceId}:${spanId}`));
  const b = new Uint8Array(digest, 0, 16);
  b[6] = 0x80 | (b[6]! & 0x0f); // version 8
  b[8] = 0x80 | (b[8]! & 0x3f); // variant 10
  const h = toHex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
