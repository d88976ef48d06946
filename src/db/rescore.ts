/**
 * Queries of re-scoring jobs (docs/rescoring.md; table `rescore_jobs`). A job walks its
 * project's requests with `since <= created_at < until` in (created_at, id) order; the cursor is
 * the last request done, so the walk resumes after a restart, and `advanceJob` moves it only
 * from the position the chunk started at (two deliveries of one message never count twice).
 */
import { and, eq, sql } from "drizzle-orm";
import { uuidv7 } from "uuidv7";
import { SCORER_VERSIONS } from "../scoring/version";
import type { Db } from "./driver/client";
import { projectRow } from "./project-rows";
import type { RESCORE_REASONS } from "../enums";
import { rescoreJobs } from "./schema";

/** A stored job. */
export type RescoreJob = typeof rescoreJobs.$inferSelect;

/**
 * A position in the walk: the last request done. `created_at` is PostgreSQL's text of the
 * timestamp (microseconds): a JS Date would cut it to milliseconds and walk the row again.
 */
export interface RescoreCursor {
  created_at: string;
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
    .where(projectRow(rescoreJobs, projectId, id));
  return job;
}

/** The job `id` of any project (the scorer worker's view), or undefined. */
export async function findRescoreJob(db: Db, id: string): Promise<RescoreJob | undefined> {
  const [job] = await db.select().from(rescoreJobs).where(eq(rescoreJobs.id, id));
  return job;
}

/**
 * The next `limit` requests of `job` after its stored cursor, in walk order (the range and the
 * cursor are compared in SQL, at the database's precision). The job's range and cursor, read
 * first as text (microseconds kept), bound `created_at` by constants too, so only the months from
 * the cursor to the range's end are read.
 */
export async function nextChunk(db: Db, job: RescoreJob, limit: number): Promise<RescoreCursor[]> {
  const [at] = (
    (await db.execute(sql`
      SELECT greatest(since, cursor_created_at)::text AS lo, until::text AS hi FROM rescore_jobs WHERE id = ${job.id}::uuid`)) as unknown as {
      rows: { lo: string; hi: string }[];
    }
  ).rows;
  if (!at) return [];
  const bound = sql`r.created_at >= ${at.lo}::timestamptz AND r.created_at < ${at.hi}::timestamptz`;
  const result = (await db.execute(sql`
    SELECT r.id, r.created_at::text AS created_at FROM rescore_jobs j JOIN llm_requests r ON r.project_id = j.project_id
    WHERE j.id = ${job.id}::uuid AND r.created_at >= j.since AND r.created_at < j.until AND ${bound}
      AND (r.created_at, r.id) > (coalesce(j.cursor_created_at, '-infinity'), coalesce(j.cursor_id, '00000000-0000-0000-0000-000000000000'))
    ORDER BY r.created_at, r.id LIMIT ${limit}`)) as unknown as { rows: RescoreCursor[] };
  return result.rows;
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
      ...(to ? { cursor_created_at: sql`${to.created_at}::timestamptz`, cursor_id: to.id } : {}),
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
