/**
 * Paging shared by the project-scoped lists (requests, scores): page parameters, time ranges,
 * the list order `created_at DESC, id DESC` spelled as the `(project_id, created_at DESC, id
 * DESC)` indexes are built, and one page with its total from one statement.
 */
import { count, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { Db } from "./driver/client";
import type { llmRequests, safetyScores } from "./schema";

/** A page request: `page` from 1, `page_size` records. */
export interface PageParams {
  page: number;
  page_size: number;
}

/** Time range: `start` inclusive, `end` exclusive. */
export interface TimeRange {
  start?: Date | undefined;
  end?: Date | undefined;
}

/**
 * List order `created_at DESC, id DESC` spelled as the indexes are built: drizzle-kit writes
 * `.desc()` index columns as `DESC NULLS LAST`, while a bare `ORDER BY x DESC` means NULLS
 * FIRST, and PostgreSQL then cannot read the order from the index (it sorts every matching row,
 * even though the columns are NOT NULL). Returns the two ORDER BY terms.
 */
export const newestFirst = (created: SQL | PgColumn, id: SQL | PgColumn): SQL[] => [sql`${created} DESC NULLS LAST`, sql`${id} DESC NULLS LAST`];

/** The reverse of `newestFirst` (`created_at ASC, id ASC`): the same index read backward. */
export const oldestFirst = (created: SQL | PgColumn, id: SQL | PgColumn): SQL[] => [sql`${created} ASC NULLS FIRST`, sql`${id} ASC NULLS FIRST`];

/** Conditions keeping `column` inside `range` (none for an open side). */
export function inRange(column: typeof llmRequests.created_at | typeof safetyScores.created_at, range: TimeRange): SQL[] {
  const conds: SQL[] = [];
  if (range.start) conds.push(gte(column, range.start));
  if (range.end) conds.push(lt(column, range.end));
  return conds;
}

/**
 * One page of `table`'s rows matching `where`, newest first (`created_at DESC, id DESC`), and
 * the total count, from ONE statement and so one snapshot: under concurrent inserts the page
 * and the total always agree (two statements could see different rows). The count is a
 * subquery, the page a LATERAL subquery left-joined to it, so an empty page still has its total.
 * Returns `{ items, total }`, `items` with the keys of `columns`.
 */
export async function pageWithTotal<C extends Record<string, PgColumn>>(
  db: Db,
  table: typeof llmRequests | typeof safetyScores,
  columns: C,
  where: SQL | undefined,
  page: PageParams,
) {
  // Both tables have `id` and `created_at`; one static type keeps the builder's types simple.
  const t = table as typeof llmRequests;
  const totals = db
    .select({ total: count().as("total") })
    .from(t)
    .where(where)
    .as("totals");
  const items = db
    .select(columns as Record<string, PgColumn>)
    .from(t)
    .$dynamic()
    .where(where)
    .orderBy(...newestFirst(t.created_at, t.id))
    .limit(page.page_size)
    .offset((page.page - 1) * page.page_size)
    .as("items");
  // The page's columns as the subquery exposes them (`"items"."id"`, ...).
  const fields = items as unknown as Record<string, PgColumn>;
  const item = Object.fromEntries(Object.keys(columns).map((k) => [k, fields[k]!])) as unknown as C;
  const rows = await db
    .select({ total: totals.total, item })
    .from(totals)
    .leftJoinLateral(items, sql`true`)
    .orderBy(...newestFirst(items.created_at as unknown as PgColumn, items.id as unknown as PgColumn));
  return {
    items: rows.flatMap((r) => (r.item === null ? [] : [r.item as unknown as SelectResultFields<C>])),
    total: rows[0]?.total ?? 0,
  };
}
