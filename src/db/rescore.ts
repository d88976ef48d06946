/**
 * Queries of re-scoring jobs (docs/rescoring.md; table `rescore_jobs`). A job walks its
 * project's requests with `since <= created_at < until` in (created_at, id) order; the cursor is
 * the last request done, so the walk resumes after a restart, and `advanceJob` moves it only
 * from the position the chunk started at (two deliveries of one message never count twice).
 */
import { and, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { SCORER_VERSIONS } from "../scoring/version";
import type { Db } from "./client";
import { type RESCORE_REASONS, rescoreJobs } from "./schema";

/** A stored job. */
export type RescoreJob = typeof rescoreJobs.$inferSelect;

/** A position in the walk: the last request done. */
export interface RescoreCursor {
  created_at: Date;
  id: string;
}

/** Creates a running job over `[since, until)` of `projectId`; `total` is the number of requests in the range now. */
export async function createRescoreJob(
  db: Db,
  projectId: string,
  since: Date,
  until: Date,
  reason: (typeof RESCORE_REASONS)[number] = "api",
): Promise<RescoreJob> {
  const total = sql<number>`(SELECT count(*)::int FROM llm_requests WHERE project_id = ${projectId}::uuid AND created_at >= ${since.toISOString()}::timestamptz AND created_at < ${until.toISOString()}::timestamptz)`;
  const [job] = await db.insert(rescoreJobs).values({ id: uuidv7(), project_id: projectId, since, until, reason, total }).returning();
  return job!;
}

/** The job `id` of `projectId`, or undefined (unknown or another project's). */
export async function getRescoreJob(db: Db, projectId: string, id: string): Promise<RescoreJob | undefined> {
  const [job] = await db
    .select()
    .from(rescoreJobs)
    .where(and(eq(rescoreJobs.project_id, projectId), eq(rescoreJobs.id, id)));
  return job;
}

/** The job `id` of any project (the scorer worker's view), or undefined. */
export async function findRescoreJob(db: Db, id: string): Promise<RescoreJob | undefined> {
  const [job] = await db.select().from(rescoreJobs).where(eq(rescoreJobs.id, id));
  return job;
}

/** The ids of the next `limit` requests of `job` after its cursor, in walk order. */
export async function nextChunk(db: Db, job: RescoreJob, limit: number): Promise<RescoreCursor[]> {
  const after =
    job.cursor_created_at && job.cursor_id ? sql`AND (created_at, id) > (${job.cursor_created_at.toISOString()}::timestamptz, ${job.cursor_id}::uuid)` : sql``;
  const result = (await db.execute(sql`
    SELECT id, created_at FROM llm_requests
    WHERE project_id = ${job.project_id}::uuid AND created_at >= ${job.since.toISOString()}::timestamptz AND created_at < ${job.until.toISOString()}::timestamptz ${after}
    ORDER BY created_at, id LIMIT ${limit}`)) as unknown as { rows: { id: string; created_at: string | Date }[] };
  return result.rows.map((r) => ({ id: r.id, created_at: new Date(r.created_at) }));
}

/**
 * Records a chunk of `done` requests ending at `to` (null: nothing left), from the cursor `job`
 * was read with; `finished` ends the job (its `total` becomes what was done). Returns false when
 * another delivery moved the job first (nothing changed then).
 */
export async function advanceJob(db: Db, job: RescoreJob, to: RescoreCursor | undefined, done: number, finished: boolean): Promise<boolean> {
  const from =
    job.cursor_id === null
      ? sql`${rescoreJobs.cursor_id} IS NULL`
      : sql`${rescoreJobs.cursor_id} = ${job.cursor_id}::uuid AND ${rescoreJobs.state} = 'running'`;
  const moved = await db
    .update(rescoreJobs)
    .set({
      cursor_created_at: to?.created_at ?? job.cursor_created_at,
      cursor_id: to?.id ?? job.cursor_id,
      done: sql`${rescoreJobs.done} + ${done}`,
      updated_at: sql`now()`,
      ...(finished ? { state: "done" as const, finished_at: sql`now()`, total: sql`${rescoreJobs.done} + ${done}` } : {}),
    })
    .where(and(eq(rescoreJobs.id, job.id), eq(rescoreJobs.state, "running"), from))
    .returning({ id: rescoreJobs.id });
  return moved.length > 0;
}

/**
 * Claims up to `limit` running jobs that have not moved for `olderThanSeconds` (their message was
 * lost or the worker restarted) and stamps them as moved now, so one scheduled run re-sends each.
 */
export async function claimStalledJobs(db: Db, olderThanSeconds: number, limit: number): Promise<string[]> {
  const stalled = db
    .select({ id: rescoreJobs.id })
    .from(rescoreJobs)
    .where(and(eq(rescoreJobs.state, "running"), sql`${rescoreJobs.updated_at} < now() - make_interval(secs => ${olderThanSeconds})`))
    .limit(limit)
    .for("update", { skipLocked: true });
  const rows = await db.update(rescoreJobs).set({ updated_at: sql`now()` }).where(sql`${rescoreJobs.id} IN ${stalled}`).returning({ id: rescoreJobs.id });
  return rows.map((r) => r.id);
}

/**
 * After a deployment with new scorer versions: one job per project over the last `days` days,
 * for the projects whose current scores in that window include a version not running now.
 * Returns the new jobs' ids.
 */
export async function createUpgradeJobs(db: Db, days: number): Promise<string[]> {
  const running = sql.join(
    Object.values(SCORER_VERSIONS).map((v) => sql`${v}`),
    sql`, `,
  );
  const since = sql`now() - make_interval(days => ${days})`;
  const result = (await db.execute(sql`
    INSERT INTO rescore_jobs (id, project_id, since, until, reason, total)
    SELECT gen_random_uuid(), r.project_id, ${since}, now(), 'upgrade', count(*)
    FROM llm_requests r
    WHERE r.created_at >= ${since} AND r.project_id IN (
      SELECT DISTINCT project_id FROM safety_scores
      WHERE superseded_at IS NULL AND created_at >= ${since} AND scorer_version NOT IN (${running}))
    GROUP BY r.project_id
    RETURNING id`)) as unknown as { rows: { id: string }[] };
  return result.rows.map((r) => r.id);
}
