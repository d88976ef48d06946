/**
 * Where PostgreSQL's bytes go: each table's heap, TOAST and each index, the months' partitions
 * summed under their parent's name, largest first (relations over 1 MB). Read by the scale
 * benchmark after each stage; also runnable alone against a kept database:
 * `npx tsx bench/scale/breakdown.ts <database url>`.
 */
import pg from "pg";

/** One relation's size: its (parent) name, what it is, and bytes on disk. */
export interface RelationBytes {
  relation: string;
  kind: "heap" | "toast" | "index";
  bytes: number;
}

/** Sizes of the public schema's tables, their TOAST and their indexes, partitions grouped under their parent. */
export async function relationBytes(pool: pg.Pool): Promise<RelationBytes[]> {
  const { rows } = await pool.query<{ relation: string; kind: RelationBytes["kind"]; bytes: string }>(`
    SELECT coalesce(parent.relname, c.relname) AS relation,
           CASE c.relkind WHEN 'i' THEN 'index' ELSE 'heap' END AS kind,
           sum(pg_relation_size(c.oid))::bigint AS bytes
      FROM pg_class c
      LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
      LEFT JOIN pg_class parent ON parent.oid = i.inhparent
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i')
     GROUP BY 1, 2
    UNION ALL
    SELECT coalesce(parent.relname, c.relname), 'toast',
           sum(pg_total_relation_size(c.reltoastrelid))::bigint
      FROM pg_class c
      LEFT JOIN pg_inherits i ON i.inhrelid = c.oid
      LEFT JOIN pg_class parent ON parent.oid = i.inhparent
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND c.reltoastrelid <> 0
     GROUP BY 1`);
  return rows
    .map((r) => ({ relation: r.relation, kind: r.kind, bytes: Number(r.bytes) }))
    .filter((r) => r.bytes > 1e6)
    .sort((a, b) => b.bytes - a.bytes);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const pool = new pg.Pool({ connectionString: process.argv[2] });
  const calls = Number((await pool.query<{ n: string }>("SELECT count(*) AS n FROM llm_requests")).rows[0]!.n);
  for (const r of await relationBytes(pool)) console.log(`| ${r.relation} | ${r.kind} | ${(r.bytes / 1e6).toFixed(0)} | ${(r.bytes / calls).toFixed(0)} |`);
  await pool.end();
}
