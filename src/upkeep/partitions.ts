/**
 * The monthly partitions of `llm_requests` and `safety_scores` (docs/storage.md): both tables
 * are partitioned BY RANGE of `created_at` (the request's), one partition per UTC month named
 * `<table>_yYYYYmMM`, plus `<table>_default` for a row no month's partition holds (a
 * client-supplied `created_at` far in the past or beyond the months created ahead).
 *
 * Partitions are created ahead: the migration created this month and the next three, and every
 * sweep (src/upkeep/sweep.ts: the scorer's cron every 2 minutes, `npm run dev` every minute)
 * makes sure this month and the next `PARTITION_MONTHS_AHEAD` exist, so ingest never writes into
 * the default partition in normal operation. Creating one is cheap (an empty table) and happens
 * once a month per table; it moves any rows the default partition holds for that month into it.
 * Dropping expired months is retention's (src/upkeep/retention.ts).
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/driver/client";

/** Months after the current one whose partitions the sweep keeps created (three: a quarter of slack if sweeps stop). */
export const PARTITION_MONTHS_AHEAD = 3;

/** The partitioned tables, parents of the monthly partitions. */
export type PartitionedTable = "llm_requests" | "safety_scores";

/** One month's partition: its name, its suffix after the parent's name (`_y2026m11`), and its range `[start, end)`. */
export interface MonthPartition {
  name: string;
  suffix: string;
  start: Date;
  end: Date;
}

/**
 * Creates the missing monthly partitions of both tables from the current UTC month to
 * `monthsAhead` months after it (`sightline_ensure_partitions`, migrations/0019; one caller at a
 * time); returns how many it created.
 */
export async function ensurePartitions(db: Db, monthsAhead = PARTITION_MONTHS_AHEAD): Promise<number> {
  const result = (await db.execute(sql`SELECT public.sightline_ensure_partitions(${monthsAhead}::int) AS created`)) as unknown as {
    rows: { created: number }[];
  };
  return result.rows[0]?.created ?? 0;
}

/** The monthly partitions of `parent` (not its default one), oldest first. */
export async function monthPartitions(db: Db, parent: PartitionedTable): Promise<MonthPartition[]> {
  const result = (await db.execute(sql`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = ${`public.${parent}`}::regclass`)) as unknown as { rows: { name: string }[] };
  const months: MonthPartition[] = [];
  for (const { name } of result.rows) {
    const m = /^(?:llm_requests|safety_scores)(_y(\d{4})m(\d{2}))$/.exec(name);
    if (!m) continue;
    const [year, month] = [Number(m[2]), Number(m[3])];
    months.push({ name, suffix: m[1]!, start: new Date(Date.UTC(year, month - 1, 1)), end: new Date(Date.UTC(year, month, 1)) });
  }
  return months.sort((a, b) => a.start.getTime() - b.start.getTime());
}
