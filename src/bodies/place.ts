/**
 * The ingest side of bodies (docs/capture.md "Bodies in R2"): before the statement that stores a
 * batch's rows, find each record's project (and its mask policy), mask the records of projects
 * that say `store_pii: "mask"` (src/policy/mask.ts), and write the large bodies of each
 * project's fresh records into one R2 object per (batch, project) (./write.ts), registered in
 * `body_objects` first. So the row that points to an object commits only after the object
 * exists, and the original bodies of a masking project never reach R2 or the database.
 */
import type { SQL } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import type { Db } from "../db/driver/client";
import { resolveBatch, resolveCaller, type ResolvedCaller } from "../db/body-objects";
import type { LogRecord } from "../db/ingest-record";
import { logWarn } from "../logger";
import { maskRecord } from "../policy/mask";
import { policyFromStored } from "../policy/schema";
import type { BodyBucket } from "./bucket";
import { INLINE, bodyObjectKey, needsObject, writeBodies, type BodyPlacement } from "./write";

/** A record ready for the ingest statement: masked when its project masks, with where its bodies are. */
export interface PlacedRecord<R extends LogRecord = LogRecord> {
  record: R;
  placement: BodyPlacement;
}

/** `record` masked under the caller's policy when it masks personal data; unchanged otherwise. */
function masked<R extends LogRecord>(record: R, caller: ResolvedCaller | undefined | null): R {
  return caller?.maskPolicy ? maskRecord(record, policyFromStored(caller.maskPolicy)) : record;
}

/**
 * Writes one object per project of `groups` (project id -> indexes into `records`), all at
 * once; fills `placements`. When any write fails, deletes the objects that were written (best
 * effort: an object left behind is unreferenced and deleted by src/upkeep/bodies.ts) and throws
 * the first error, so no row is stored and the caller retries the whole batch.
 */
async function writeGroups(bucket: BodyBucket, batchId: string, records: readonly LogRecord[], groups: Map<string, number[]>, placements: BodyPlacement[]) {
  const keys = [...groups.keys()].map((projectId) => bodyObjectKey(projectId, batchId));
  const results = await Promise.allSettled(
    [...groups.values()].map(async (indexes, g) => {
      const placed = await writeBodies(
        bucket,
        keys[g]!,
        indexes.map((i) => records[i]!),
      );
      indexes.forEach((i, k) => {
        placements[i] = placed[k]!;
      });
    }),
  );
  const failed = results.find((r): r is PromiseRejectedResult => r.status === "rejected");
  if (!failed) return;
  await bucket.delete(keys).catch((err: unknown) => logWarn("could not delete the body objects of a failed batch", { objects: keys.length }, err));
  throw failed.reason;
}

/**
 * The batch path (log-records consumer, OTLP): records (by key hash) masked where their project
 * masks and their large bodies written, one object per project; records already stored, or
 * whose key resolves to no project, keep their bodies inline (the statement stores nothing for
 * them). One statement before the writes (`resolveBatch`). Throws what R2 or the driver throws.
 */
export async function placeBatch<R extends LogRecord>(
  db: Db,
  bucket: BodyBucket,
  entries: readonly { id: string; keyHash: string; record: R }[],
): Promise<PlacedRecord<R>[]> {
  const batchId = uuidv7();
  const { callers, existing } = await resolveBatch(
    db,
    batchId,
    entries.map((e) => ({ id: e.id, keyHash: e.keyHash, large: needsObject(e.record), created_at: e.record.created_at })),
  );
  const records = entries.map((e) => masked(e.record, callers.get(e.keyHash)));
  const placements: BodyPlacement[] = records.map(() => INLINE);
  const groups = new Map<string, number[]>();
  entries.forEach((e, i) => {
    const caller = callers.get(e.keyHash);
    if (!caller || existing.has(e.id)) return;
    groups.set(caller.projectId, [...(groups.get(caller.projectId) ?? []), i]);
  });
  await writeGroups(bucket, batchId, records, groups, placements);
  return records.map((record, i) => ({ record, placement: placements[i]! }));
}

/**
 * The single-call path (POST /internal/log) for a record with a large body: the project of
 * `caller` (SQL answering its `project_id`, ./db/ingest.ts `callerSql`) resolved, the record
 * masked when it masks, and its bodies written to an object of their own. Null when the caller
 * has no project (the ingest statement then refuses it). Throws what R2 or the driver throws.
 */
export async function placeRecord<R extends LogRecord>(db: Db, bucket: BodyBucket, caller: SQL, record: R): Promise<PlacedRecord<R> | null> {
  const batchId = uuidv7();
  const resolved = await resolveCaller(db, batchId, caller);
  if (!resolved) return null;
  const placed = masked(record, resolved);
  const placements: BodyPlacement[] = [INLINE];
  await writeGroups(bucket, batchId, [placed], new Map([[resolved.projectId, [0]]]), placements);
  return { record: placed, placement: placements[0]! };
}
