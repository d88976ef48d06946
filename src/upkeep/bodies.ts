/**
 * Upkeep of the body objects (docs/capture.md "Bodies in R2"), run by the scorer's cron with retention
 * (workers/scorer/src/maintenance.ts):
 *
 * - deletion: objects no stored call points to any more (their calls deleted by retention or
 *   with their project, or a batch that stored none of them) are deleted from R2, then
 *   forgotten (src/db/body-objects.ts `deletableObjects`), up to `BODY_DELETE_BATCH` a run;
 * - the move of bodies stored inline before bodies went to R2: `BODY_MOVE_ROWS` calls a run,
 *   in request id order from a cursor, each chunk's large bodies written as one object per
 *   project (registered first) before the rows point to them.
 */
import { uuidv7 } from "uuidv7";
import type { TierRetention } from "../billing/tiers";
import type { BodyBucket } from "../bodies/bucket";
import { bodyObjectKey, needsObject, writeBodies, type BodyPlacement } from "../bodies/write";
import { deletableObjects, forgetObjects, inlineBodiesPage, pointRowsAtObjects, registerObjects } from "../db/body-objects";
import type { Db } from "../db/driver/client";
import { logError, logInfo } from "../logger";

/** Objects deleted per run at most (R2 deletes up to 1,000 keys per call). */
export const BODY_DELETE_BATCH = 1_000;

/** Calls whose inline bodies the move reads per chunk (one object per project and chunk). */
export const BODY_MOVE_CHUNK = 100;

/** Calls the move walks per run at most (10 chunks). */
export const BODY_MOVE_ROWS = 1_000;

/** Which calls and objects a run covers: all (the cron), or only those of the listed projects (an operator, a test). */
export interface BodyUpkeepScope {
  projectIds?: readonly string[];
  /** Objects deleted at most (default `BODY_DELETE_BATCH`). */
  deleteLimit?: number;
  /** Calls the move walks at most (default `BODY_MOVE_ROWS`). */
  moveRows?: number;
  /** Calls per chunk of the move (default `BODY_MOVE_CHUNK`). */
  moveChunk?: number;
}

/** Deletes up to `scope.deleteLimit` objects no call points to (R2 first, then their entries); returns how many. */
export async function deleteUnusedBodies(db: Db, bucket: BodyBucket, days: TierRetention, scope: BodyUpkeepScope = {}): Promise<number> {
  const keys = await deletableObjects(db, days, scope.deleteLimit ?? BODY_DELETE_BATCH, scope.projectIds);
  if (keys.length === 0) return 0;
  await bucket.delete(keys);
  await forgetObjects(db, keys);
  return keys.length;
}

/**
 * Moves the large inline bodies of up to `scope.moveRows` calls (in chunks of `scope.moveChunk`)
 * to R2; returns how many calls were walked (0: nothing is left to move). Throws what R2 or the
 * driver throws; the cursor then stays where the last finished chunk left it.
 */
export async function moveBodiesToR2(db: Db, bucket: BodyBucket, scope: BodyUpkeepScope = {}): Promise<number> {
  const { projectIds, moveRows: rows = BODY_MOVE_ROWS, moveChunk: chunk = BODY_MOVE_CHUNK } = scope;
  let walked = 0;
  while (walked < rows) {
    const page = await inlineBodiesPage(db, Math.min(chunk, rows - walked), projectIds);
    if (page.last === null) break;
    const large = page.rows.filter((r) => needsObject(r));
    const byProject = new Map<string, typeof large>();
    for (const r of large) byProject.set(r.project_id, [...(byProject.get(r.project_id) ?? []), r]);
    const objects = [...byProject.keys()].map((projectId) => ({ key: bodyObjectKey(projectId, uuidv7()), projectId }));
    await registerObjects(db, objects);
    const moved: (BodyPlacement & { id: string; created_at: string })[] = [];
    await Promise.all(
      objects.map(async ({ key, projectId }) => {
        const calls = byProject.get(projectId)!;
        const placed = await writeBodies(bucket, key, calls);
        calls.forEach((c, i) => {
          moved.push({ id: c.id, created_at: c.created_at, ...placed[i]! });
        });
      }),
    );
    await pointRowsAtObjects(db, moved, page.last, projectIds);
    walked += page.walked;
  }
  return walked;
}

/** What one upkeep run did: objects deleted, calls walked by the move. */
export interface BodyUpkeepResult {
  deleted: number;
  walked: number;
}

/** Deletion, then the move; each logs its own failure and never stops the other. */
export async function runBodyUpkeep(db: Db, bucket: BodyBucket, days: TierRetention): Promise<BodyUpkeepResult> {
  const deleted = await deleteUnusedBodies(db, bucket, days).catch((err: unknown) => {
    logError("body object deletion failed", {}, err);
    return 0;
  });
  const walked = await moveBodiesToR2(db, bucket).catch((err: unknown) => {
    logError("moving inline bodies to R2 failed; the next run resumes", {}, err);
    return 0;
  });
  if (deleted > 0) logInfo("body objects deleted", { count: deleted });
  return { deleted, walked };
}
