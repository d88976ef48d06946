/**
 * The page of ids for a text search (`q`), in list order. PostgreSQL cannot estimate how many
 * rows a word matches unless the word is among the most common ones (pg_stats keeps only
 * those), so for a rare word it walked the list index newest first and tested every row
 * (1.9 s at 1M rows), and for a common word a GIN bitmap would read every match before sorting
 * (2.2 s for 83k matches). So two bounded steps:
 * 1. test only the newest WALK_ROWS rows of the other filters (list index, stops at the page);
 * 2. if they hold less than a page, ask the GIN index for every match and sort those (a rare
 *    word, so few rows). The order key `created_at + 0 s` keeps the planner off the list index.
 *    The GIN index leads with `project_id` (btree_gin, migration 0021), so this is one index scan
 *    of the project's matches per month; on the document alone PostgreSQL ANDed the bitmap with
 *    the project's btree range (bench:scale, 5M calls: 127 ms warm, 15-27 ms with it).
 */
import { and, sql, type SQL } from "drizzle-orm";
import type { Db } from "./driver/client";
import { requestConditions, type RequestFilters } from "./request-filters";
import { websearchQuery } from "./search-query";
import { llmRequests } from "./schema";
import type { RequestRef } from "./request-time";

/** Rows of the newest candidates tested before the GIN index is used instead. */
export const WALK_ROWS = 2000;

/**
 * Up to `limit + 1` requests matching `filters` (with `q`; keyset anchors resolved, `withAnchors`),
 * newest first: their ids and `created_at` text, so the read of the rows that follows stays in
 * their months.
 */
export async function searchIds(db: Db, projectId: string, filters: RequestFilters & { q: string }, limit: number): Promise<RequestRef[]> {
  const { q, ...rest } = filters;
  const base = requestConditions(projectId, rest);
  const matches = (column: SQL | typeof llmRequests.search_tsv) => sql`${column} @@ ${websearchQuery(q)}`;
  const recent = db
    .select({
      id: llmRequests.id,
      created_at: llmRequests.created_at,
      at: sql<string>`${llmRequests.created_at}::text`.as("at"),
      search_tsv: llmRequests.search_tsv,
    })
    .from(llmRequests)
    .where(base)
    .orderBy(sql`${llmRequests.created_at} DESC NULLS LAST`, sql`${llmRequests.id} DESC NULLS LAST`)
    .limit(WALK_ROWS)
    .as("recent");
  const walked = await db
    .select({ id: recent.id, created_at: recent.at })
    .from(recent)
    .where(matches(sql`${recent.search_tsv}`))
    .orderBy(sql`${recent.created_at} DESC`, sql`${recent.id} DESC`)
    .limit(limit + 1);
  if (walked.length > limit) return walked;
  return db
    .select({ id: llmRequests.id, created_at: sql<string>`${llmRequests.created_at}::text` })
    .from(llmRequests)
    .where(and(base, matches(llmRequests.search_tsv)))
    .orderBy(sql`${llmRequests.created_at} + interval '0 s' DESC`, sql`${llmRequests.id} DESC`)
    .limit(limit + 1);
}
