/**
 * Retention (docs/retention.md): requests older than their project's tier allows
 * (src/billing/tiers.ts `retention_days`: free 30 days, pro 365; during the grace period after a
 * drop of tier, src/billing/grace.ts, the higher tier's) are deleted with their scores
 * and reviews (foreign keys `ON DELETE CASCADE`); the hourly rollups (`request_rollups`,
 * `score_rollups`) are not touched, so the overview still shows old totals. Exports read the
 * rows, so old calls can be exported until this deletes them.
 *
 * Deletion goes in bounded batches: each batch is one short statement (its own transaction)
 * deleting at most `batchSize` of the oldest expired rows, found per project through the
 * `(project_id, created_at)` index, so no lock is held for long and ingest never waits on it.
 * Run by the scorer worker's cron (every 2 minutes) up to `maxBatches` batches per run.
 */
import { type SQL, sql } from "drizzle-orm";
import type { TierRetention } from "../billing/tiers";
import type { Db } from "../db/driver/client";
import { deleteOrphanSessionScores } from "../db/sessions";
import { TIERS } from "../enums";

/** Requests deleted per statement. */
export const RETENTION_BATCH = 1_000;

/** Statements per run at most (a backlog is worked off over several runs). */
export const RETENTION_MAX_BATCHES = 20;

/**
 * SQL for the retention in days of the tier in column `tier` of subscription row `s`: one `WHEN`
 * per tier of `TIERS` (NULL: kept, also for a value that is no tier).
 */
function tierDaysSql(days: TierRetention, tier: "tier" | "retention_tier") {
  const whens = sql.join(
    TIERS.map((t) => sql`WHEN ${t} THEN ${days[t]}::int`),
    sql` `,
  );
  return sql`CASE s.${sql.identifier(tier)} ${whens} END`;
}

/**
 * SQL for the retention of subscription row `s` as an interval (NULL: kept): its tier's, or
 * during a grace period (src/billing/grace.ts) the longer of its tier's and the grace tier's.
 */
function retentionSql(days: TierRetention) {
  const current = tierDaysSql(days, "tier");
  const grace = tierDaysSql(days, "retention_tier");
  return sql`make_interval(days => CASE
    WHEN s.retention_tier IS NOT NULL AND s.retention_grace_until > now() THEN
      CASE WHEN ${current} IS NULL OR ${grace} IS NULL THEN NULL ELSE GREATEST(${current}, ${grace}) END
    ELSE ${current} END)`;
}

/** Which projects a run covers: all (the cron), or only the listed ones (an operator, a test). */
export interface RetentionScope {
  batchSize?: number;
  maxBatches?: number;
  projectIds?: readonly string[];
}

/**
 * SQL selecting column `key` of up to `limit` rows of `table` (a table of project rows) whose
 * `time` column is past their project's retention, oldest first per project, found per
 * subscription through a `(project_id, time)` index; `projectIds` narrows the projects.
 */
export function pastRetentionSql(days: TierRetention, table: string, key: string, time: string, limit: number, projectIds?: readonly string[]): SQL {
  const scoped = projectIds ? sql`AND s.project_id = ANY(${`{${projectIds.join(",")}}`}::uuid[])` : sql``;
  const [t, k, at] = [sql.identifier(table), sql.identifier(key), sql.identifier(time)];
  return sql`SELECT e.${k} FROM subscriptions s
      CROSS JOIN LATERAL (SELECT ${retentionSql(days)} AS keep) k
      CROSS JOIN LATERAL (
        SELECT r.${k} FROM ${t} r
        WHERE r.project_id = s.project_id AND r.${at} < now() - k.keep
        ORDER BY r.${at} LIMIT ${limit}
      ) e
      WHERE k.keep IS NOT NULL ${scoped}
      LIMIT ${limit}`;
}

/** Deletes one batch of expired requests (and, by cascade, their scores); returns how many. */
export async function deleteExpiredBatch(db: Db, days: TierRetention, batchSize = RETENTION_BATCH, projectIds?: readonly string[]): Promise<number> {
  const result = (await db.execute(sql`
    WITH expired AS (${pastRetentionSql(days, "llm_requests", "id", "created_at", batchSize, projectIds)})
    DELETE FROM llm_requests WHERE id IN (SELECT id FROM expired)`)) as unknown as { rowCount: number | null };
  return result.rowCount ?? 0;
}

/**
 * Deletes expired requests batch by batch (RETENTION_BATCH each, up to RETENTION_MAX_BATCHES),
 * then the scores of sessions left without a call (`deleteOrphanSessionScores`); returns how many
 * requests were deleted.
 */
export async function applyRetention(db: Db, days: TierRetention, scope: RetentionScope = {}): Promise<number> {
  const { batchSize = RETENTION_BATCH, maxBatches = RETENTION_MAX_BATCHES, projectIds } = scope;
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteExpiredBatch(db, days, batchSize, projectIds);
    deleted += n;
    if (n < batchSize) break;
  }
  if (deleted > 0) await deleteOrphanSessionScores(db, batchSize * maxBatches, projectIds);
  return deleted;
}
