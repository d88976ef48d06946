/**
 * Writing bodies (docs/capture.md "Bodies in R2"): the bodies of calls that arrived together (one
 * ingest batch of one project) that are too large to stay inline go into ONE R2 object, each
 * body its own gzip member, so a batch costs one R2 write (a Class A operation) whatever its
 * size, and each body is read back alone with a ranged get (./read.ts).
 */
import { uuidv7 } from "uuidv7";
import { storableJson } from "../ingest/input";
import type { BodyBucket } from "./bucket";
import { BodyStorageError } from "./bucket";
import { gzip, isInline, utf8 } from "./codec";
import type { BodyPointer, Segment, StoredBodies } from "./columns";

/**
 * The JSON text a body is stored as: NUL and lone surrogates replaced (src/ingest/input.ts), so
 * the text PostgreSQL derives the preview and search document from is the text R2 holds; an
 * absent body is `null`.
 */
export function bodyText(body: unknown): string {
  return JSON.stringify(storableJson(body ?? null).value);
}

/** A call's two bodies as logged (JSON values; `response_body` null or absent when none). */
export interface BodyPair {
  request_body: unknown;
  response_body?: unknown;
}

/** Where `writeBodies` put a call's bodies: the pointer columns of `llm_requests` (all null when both stay inline). */
export type BodyPlacement = Pick<StoredBodies, BodyPointer>;

/** The placement of a call whose bodies both stay inline. */
export const INLINE: BodyPlacement = Object.freeze({
  body_key: null,
  request_body_offset: null,
  request_body_length: null,
  response_body_offset: null,
  response_body_length: null,
});

/** A new object key for one batch's bodies of `projectId`: `<project_id>/<uuidv7>` (time-ordered, listable per project). */
export function bodyObjectKey(projectId: string, batchId: string = uuidv7()): string {
  return `${projectId}/${batchId}`;
}

/** True when either body of `pair` is over `INLINE_BODY_BYTES` (the call needs an object). */
export function needsObject(pair: BodyPair): boolean {
  return !isInline(utf8(bodyText(pair.request_body))) || !isInline(utf8(bodyText(pair.response_body)));
}

/** A body's gzip member, or null when it stays inline. */
function member(body: unknown): Uint8Array | null {
  const bytes = utf8(bodyText(body));
  return isInline(bytes) ? null : gzip(bytes);
}

/**
 * Writes the bodies of `pairs` that are too large to stay inline into object `key` of `bucket`
 * (one `put`; none when every body is small) and returns each call's placement, in order. Throws
 * `BodyStorageError` when R2 refuses: the caller stores no row then (a row never points at
 * nothing) and retries.
 * `bucket` null (a Node tool without R2): every body stays inline.
 */
export async function writeBodies(bucket: BodyBucket | null, key: string, pairs: readonly BodyPair[]): Promise<BodyPlacement[]> {
  if (!bucket) return pairs.map(() => INLINE);
  const members = pairs.map((p) => [member(p.request_body), member(p.response_body)] as const);
  const parts: Uint8Array[] = [];
  let size = 0;
  const place = (m: Uint8Array | null): Segment | null => {
    if (!m) return null;
    const segment = { offset: size, length: m.byteLength };
    parts.push(m);
    size += m.byteLength;
    return segment;
  };
  const placements = members.map(([req, res]): BodyPlacement => {
    const request = place(req);
    const response = place(res);
    if (!request && !response) return INLINE;
    return {
      body_key: key,
      request_body_offset: request?.offset ?? null,
      request_body_length: request?.length ?? null,
      response_body_offset: response?.offset ?? null,
      response_body_length: response?.length ?? null,
    };
  });
  if (size === 0) return placements;
  const object = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    object.set(part, at);
    at += part.byteLength;
  }
  try {
    await bucket.put(key, object, { httpMetadata: { contentType: "application/octet-stream" } });
  } catch (err) {
    throw new BodyStorageError(key, err);
  }
  return placements;
}
