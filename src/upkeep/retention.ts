/**
 * Retention (docs/retention.md): requests older than their project's tier allows
 * (src/billing/tiers.ts `retention_days`: free 30 days, pro 365, team 730; during the grace
 * period after a drop of tier, src/billing/grace.ts, the higher tier's) are deleted with their
 * scores, reviews and alert deliveries; the hourly rollups (`request_rollups`, `score_rollups`)
 * are not touched, so the overview still shows old totals. Exports read the rows, so old calls
 * can be exported until this deletes them.
 *
 * Two ways, by age (`llm_requests` and `safety_scores` are partitioned by month, docs/storage.md):
 * - a month wholly older than the longest finite retention (730 days by default) goes at once:
 *   its partitions of both tables are dropped (`dropExpiredPartitions`), no row deleted one by
 *   one, no dead tuples left to vacuum; unless a project that keeps its calls longer (enterprise,
 *   a grace to it, or no subscription) has calls in that month;
 * - inside newer months, deletion goes in bounded batches: each batch is one short statement
 *   (its own transaction) deleting at most `batchSize` of the oldest expired rows, found per
 *   project through the `(project_id, created_at)` index, so no lock is held for long and ingest
 *   never waits on it.
 * Run by the scorer worker's cron (every 2 minutes) up to `maxBatches` batches per run.
 */
import { type SQL, sql } from "drizzle-orm";
import type { TierRetention } from "../billing/tiers";
import type { Db } from "../db/driver/client";
import { deleteOrphanSessionScores } from "../db/sessions";
import { TIERS } from "../enums";
import { logInfo } from "../logger";
import { monthPartitions } from "./partitions";

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

/**
 * The oldest `created_at` that project `projectId`'s retention keeps now (`retentionSql`: its
 * tier's, or during a grace the longer one), or null when its calls are kept until deleted (or
 * it has no subscription). Reads that would otherwise cover every month (the session list)
 * start here: older calls are being deleted anyway.
 */
export async function retentionStart(db: Db, days: TierRetention, projectId: string): Promise<Date | null> {
  const result = (await db.execute(sql`SELECT now() - ${retentionSql(days)} AS start FROM subscriptions s WHERE s.project_id = ${projectId}`)) as unknown as {
    rows: { start: string | Date | null }[];
  };
  const start = result.rows[0]?.start;
  return start ? new Date(start) : null;
}

/** Which projects a run covers: all (the cron), or only the listed ones (an operator, a test). */
export interface RetentionScope {
  batchSize?: number;
  maxBatches?: number;
  projectIds?: readonly string[];
}

/**
 * SQL selecting columns `keys` of up to `limit` rows of `table` (a table of project rows) whose
 * `time` column is past their project's retention, oldest first per project, found per
 * subscription through a `(project_id, time)` index; `projectIds` narrows the projects.
 */
export function pastRetentionSql(
  days: TierRetention,
  table: string,
  keys: string | readonly string[],
  time: string,
  limit: number,
  projectIds?: readonly string[],
): SQL {
  const scoped = projectIds ? sql`AND s.project_id = ANY(${`{${projectIds.join(",")}}`}::uuid[])` : sql``;
  const columns = (typeof keys === "string" ? [keys] : keys).map((k) => sql.identifier(k));
  const [t, at] = [sql.identifier(table), sql.identifier(time)];
  return sql`SELECT ${sql.join(
    columns.map((c) => sql`e.${c}`),
    sql`, `,
  )} FROM subscriptions s
      CROSS JOIN LATERAL (SELECT ${retentionSql(days)} AS keep) k
      CROSS JOIN LATERAL (
        SELECT ${sql.join(
          columns.map((c) => sql`r.${c}`),
          sql`, `,
        )} FROM ${t} r
        WHERE r.project_id = s.project_id AND r.${at} < now() - k.keep
        ORDER BY r.${at} LIMIT ${limit}
      ) e
      WHERE k.keep IS NOT NULL ${scoped}
      LIMIT ${limit}`;
}

/**
 * Deletes one batch of expired requests with their scores, the reviews of those calls and the
 * alert deliveries of those scores (no foreign keys cascade into the partitioned tables:
 * src/db/schema/scores.ts), in one statement; returns how many requests it deleted.
 */
export async function deleteExpiredBatch(db: Db, days: TierRetention, batchSize = RETENTION_BATCH, projectIds?: readonly string[]): Promise<number> {
  const result = (await db.execute(sql`
    WITH expired AS (${pastRetentionSql(days, "llm_requests", ["id", "created_at"], "created_at", batchSize, projectIds)}),
    gone AS (
      DELETE FROM llm_requests r USING expired e WHERE r.id = e.id AND r.created_at = e.created_at RETURNING r.id, r.created_at
    ),
    scores AS (
      DELETE FROM safety_scores s USING gone g WHERE s.request_id = g.id AND s.created_at = g.created_at RETURNING s.id
    ),
    reviews AS (DELETE FROM score_reviews v USING gone g WHERE v.request_id = g.id),
    deliveries AS (DELETE FROM alert_deliveries d USING scores s WHERE d.score_id = s.id)
    SELECT count(*)::int AS n FROM gone`)) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? 0;
}

/**
 * Drops the monthly partitions of `llm_requests` and `safety_scores` for every month that ended
 * more than the longest finite retention of `days` ago, when no project whose calls are kept
 * longer (retention null: enterprise, a grace to it, no subscription) has a call in it; the
 * reviews of its calls and the alert deliveries of its scores go first. One transaction per
 * month, waiting at most `lock_timeout` 5 s for the parent tables (a busy month is tried again on
 * the next run). `endedBefore` narrows it to the months that also ended before that instant (an
 * operator, a test). Returns the dropped months' partition names of `llm_requests`.
 */
export async function dropExpiredPartitions(db: Db, days: TierRetention, endedBefore?: Date): Promise<string[]> {
  const finite = TIERS.map((t) => days[t]).filter((d): d is number => d !== null);
  if (finite.length === 0) return [];
  const longest = Math.max(...finite);
  const result = (await db.execute(sql`SELECT now() - make_interval(days => ${longest}::int) AS cutoff`)) as unknown as { rows: { cutoff: Date | string }[] };
  const cutoff = Math.min(new Date(result.rows[0]!.cutoff).getTime(), endedBefore?.getTime() ?? Number.POSITIVE_INFINITY);
  const expired = (await monthPartitions(db, "llm_requests")).filter((p) => p.end.getTime() <= cutoff);
  if (expired.length === 0) return [];
  const keepers = sql`(SELECT p.id FROM projects p LEFT JOIN subscriptions s ON s.project_id = p.id
    CROSS JOIN LATERAL (SELECT ${retentionSql(days)} AS keep) k WHERE k.keep IS NULL)`;
  const dropped: string[] = [];
  for (const month of expired) {
    const requests = sql.identifier(month.name);
    const scores = sql.identifier(`safety_scores${month.suffix}`);
    const kept = (await db.execute(sql`SELECT EXISTS (SELECT 1 FROM ${requests} WHERE project_id IN ${keepers}) AS kept`)) as unknown as {
      rows: { kept: boolean }[];
    };
    if (kept.rows[0]?.kept) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql`SET LOCAL lock_timeout = '5s'`);
      await tx.execute(sql`DELETE FROM score_reviews WHERE request_id IN (SELECT id FROM ${requests})`);
      const scoresExist = (await tx.execute(sql`SELECT to_regclass(${`public.safety_scores${month.suffix}`}) IS NOT NULL AS present`)) as unknown as {
        rows: { present: boolean }[];
      };
      if (scoresExist.rows[0]?.present) {
        await tx.execute(sql`DELETE FROM alert_deliveries WHERE score_id IN (SELECT id FROM ${scores})`);
        await tx.execute(sql`DROP TABLE ${scores}`);
      }
      await tx.execute(sql`DROP TABLE ${requests}`);
    });
    dropped.push(month.name);
  }
  return dropped;
}

/**
 * Drops the expired months' partitions (`dropExpiredPartitions`; in a run over all projects
 * only), then deletes expired requests batch by batch (RETENTION_BATCH each, up to
 * RETENTION_MAX_BATCHES), then the scores of sessions left without a call
 * (`deleteOrphanSessionScores`); returns how many requests the batches deleted.
 */
export async function applyRetention(db: Db, days: TierRetention, scope: RetentionScope = {}): Promise<number> {
  const { batchSize = RETENTION_BATCH, maxBatches = RETENTION_MAX_BATCHES, projectIds } = scope;
  const dropped = projectIds ? [] : await dropExpiredPartitions(db, days);
  if (dropped.length > 0) logInfo("retention dropped expired months", { partitions: dropped.join(",") });
  let deleted = 0;
  for (let i = 0; i < maxBatches; i++) {
    const n = await deleteExpiredBatch(db, days, batchSize, projectIds);
    deleted += n;
    if (n < batchSize) break;
  }
  if (deleted > 0 || dropped.length > 0) await deleteOrphanSessionScores(db, batchSize * maxBatches, projectIds);
  return deleted;
}
