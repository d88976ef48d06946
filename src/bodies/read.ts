/**
 * Reading bodies (docs/capture.md "Bodies in R2"): the one way every reader (detail, export, sessions,
 * the reviewed-calls export, the scorer and re-scoring) gets a call's bodies from its stored
 * row: inline values as they are, the others from their R2 objects by byte range, each gzip
 * member decompressed and parsed.
 */
import { gunzipText } from "./codec";
import type { BodyPointer, Segment, StoredBodies } from "./columns";
import { type BodyBucket, BodyStorageError } from "./bucket";

/**
 * Largest byte range read in one R2 get (8 MiB): neighbouring bodies of one object (rows of one
 * batch on one export page) are read together up to this span, so a page costs one get per
 * object rather than one per body, and a reader never holds much more than it needs.
 */
export const READ_WINDOW_BYTES = 8 * 1024 * 1024;

/** An object's member that is missing or shorter than the row says: the row points at nothing. */
export class BodyMissingError extends Error {
  constructor(readonly key: string) {
    super(`body object ${key} is missing or shorter than its rows say`);
  }
}

/**
 * A body read from R2 as its stored JSON text, not parsed: what `readBodies` gives for the rows
 * its `asText` option selects, for a reader that only writes the JSON out again (the export of a
 * call it need not mask). `text` is exactly what `JSON.stringify` of the parsed value gives
 * (it was written as `bodyText`, ./write.ts).
 */
export class StoredJsonText {
  constructor(readonly text: string) {}
}

/** A row with its bodies read: the pointer columns dropped, `request_body` and `response_body` the JSON values. */
export type WithBodies<T extends StoredBodies> = Omit<T, BodyPointer>;

/** Segments of one object, grouped into ranged gets of at most `READ_WINDOW_BYTES` (a larger segment is a get of its own). */
function windows(segments: Segment[]): Segment[][] {
  const sorted = [...segments].sort((a, b) => a.offset - b.offset);
  const out: Segment[][] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last && s.offset + s.length - last[0]!.offset <= READ_WINDOW_BYTES) last.push(s);
    else out.push([s]);
  }
  return out;
}

/** The JSON texts of `segments` of object `key`, by offset; throws `BodyMissingError`, or `BodyStorageError` when R2 fails. */
export async function readSegmentTexts(bucket: BodyBucket, key: string, segments: Segment[]): Promise<Map<number, string>> {
  const texts = new Map<number, string>();
  await Promise.all(
    windows(segments).map(async (group) => {
      const start = group[0]!.offset;
      const end = Math.max(...group.map((s) => s.offset + s.length));
      const object = await bucket.get(key, { range: { offset: start, length: end - start } }).catch((err: unknown) => {
        throw new BodyStorageError(key, err);
      });
      if (!object) throw new BodyMissingError(key);
      const bytes = new Uint8Array(await object.arrayBuffer());
      if (bytes.byteLength < end - start) throw new BodyMissingError(key);
      for (const s of group) texts.set(s.offset, gunzipText(bytes.subarray(s.offset - start, s.offset - start + s.length)));
    }),
  );
  return texts;
}

/** The segment of a row's request or response body, or null when that body is inline. */
function segmentOf(row: StoredBodies, which: "request" | "response"): Segment | null {
  const length = row[`${which}_body_length`];
  const offset = row[`${which}_body_offset`];
  return row.body_key !== null && length !== null && offset !== null ? { offset, length } : null;
}

/**
 * `rows` with their bodies: inline ones as stored, the others read from `bucket` (one ranged
 * get per object and window, all objects at once), parsed; or, for the rows `asText` selects,
 * left as their JSON text (`StoredJsonText`). Throws `BodyMissingError` when an object is
 * gone, or what R2 throws; `bucket` null reads inline bodies only (a row pointing at R2 then throws).
 */
export async function readBodies<T extends StoredBodies>(
  bucket: BodyBucket | null,
  rows: readonly T[],
  asText?: (row: T) => boolean,
): Promise<WithBodies<T>[]> {
  const wanted = new Map<string, Segment[]>();
  for (const row of rows) {
    for (const which of ["request", "response"] as const) {
      const s = segmentOf(row, which);
      if (!s) continue;
      const segments = wanted.get(row.body_key!);
      if (segments) segments.push(s);
      else wanted.set(row.body_key!, [s]);
    }
  }
  const texts = new Map<string, Map<number, string>>();
  await Promise.all(
    [...wanted].map(async ([key, segments]) => {
      if (!bucket) throw new BodyMissingError(key);
      texts.set(key, await readSegmentTexts(bucket, key, segments));
    }),
  );
  const body = (row: T, which: "request" | "response"): unknown => {
    const s = segmentOf(row, which);
    if (!s) return row[`${which}_body`];
    const text = texts.get(row.body_key!)!.get(s.offset)!;
    return asText?.(row) ? new StoredJsonText(text) : JSON.parse(text);
  };
  return rows.map((row) => {
    const { body_key: _k, request_body_offset: _a, request_body_length: _b, response_body_offset: _c, response_body_length: _d, ...rest } = row;
    return { ...rest, request_body: body(row, "request"), response_body: body(row, "response") } as WithBodies<T>;
  });
}
