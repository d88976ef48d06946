/**
 * The text search of `q` (request list, count, export): PostgreSQL's `websearch_to_tsquery`
 * under one text search configuration, the one the stored document `search_tsv` is built with
 * (src/db/schema/requests.ts), so the query's lexemes are the stored ones.
 */
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "./driver/client";
import { SEARCH_CONFIG } from "./search-config";

/** `websearch_to_tsquery(SEARCH_CONFIG, q)`: `q` as the search box's syntax (words, "phrases", or, -not). */
export function websearchQuery(q: string): SQL {
  return sql`websearch_to_tsquery(${sql.raw(`'${SEARCH_CONFIG}'`)}::regconfig, ${q})`;
}

/**
 * The lexemes PostgreSQL searches for when `q` is searched, in the query's order, negated ones
 * included (a `-word` search counts the rows without it, so tells about them as much):
 * `websearch_to_tsquery` of `q` as text (`'jane.doe@example.com' & '4111' <-> '1111'`), its
 * quoted lexemes read back (`''` is an escaped quote). One round trip; empty for a query of
 * no words.
 */
export async function searchLexemes(db: Db, q: string): Promise<string[]> {
  const result = (await db.execute(sql`SELECT ${websearchQuery(q)}::text AS query`)) as unknown as { rows: { query: string }[] };
  const text = result.rows[0]?.query ?? "";
  return [...text.matchAll(/'((?:[^']|'')*)'/g)].map((m) => (m[1] ?? "").replaceAll("''", "'"));
}
