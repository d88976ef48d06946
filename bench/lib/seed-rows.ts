/**
 * Building blocks of the benchmarks that seed PostgreSQL in bulk (bench/scale): deterministic
 * pseudo-random numbers and UUIDv7 ids, COPY text escaping and streaming, and the secondary
 * indexes dropped for a load and rebuilt after it (the usual bulk-load recipe,
 * https://www.postgresql.org/docs/current/populate.html).
 */
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** Deterministic pseudo-random number in [0, 1) from an integer and a salt (an integer hash; no shared RNG state). */
export function rnd(i: number, salt: number): number {
  let x = (Math.imul(i, 2654435761) + Math.imul(salt, 40503) + Math.floor(i / 4294967296)) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x45d9f3b) >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x45d9f3b) >>> 0;
  x ^= x >>> 16;
  return (x >>> 0) / 4294967296;
}

const hex32 = (i: number, salt: number) =>
  Math.floor(rnd(i, salt) * 4294967296)
    .toString(16)
    .padStart(8, "0");

/**
 * A UUIDv7 (RFC 9562 section 5.7) for instant `ms` whose 74 random bits are derived from
 * (`i`, `salt`): the same call always gets the same id, so generators can recompute ids instead
 * of holding them.
 */
export function uuidv7At(ms: number, i: number, salt = 0): string {
  const t = ms.toString(16).padStart(12, "0");
  const a = hex32(i, 101 + salt * 7);
  const b = hex32(i, 102 + salt * 7);
  const c = hex32(i, 103 + salt * 7);
  const variant = ((Number.parseInt(b[0]!, 16) & 0x3) | 0x8).toString(16);
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-7${a.slice(0, 3)}-${variant}${b.slice(1, 4)}-${b.slice(4, 8)}${c}`;
}

/** COPY text format escaping (backslash, tab, newline, carriage return); `\N` for null. */
export function copyText(s: string | null): string {
  return s === null ? "\\N" : s.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r");
}

/** Streams what `lines` yields (COPY text, any chunking) into `COPY table (columns) FROM STDIN`. */
export async function copyInto(client: pg.PoolClient, table: string, columns: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const stream = client.query(copyFrom(`COPY ${table} (${columns}) FROM STDIN`));
  await pipeline(Readable.from(lines), stream);
}

/**
 * Secondary indexes of `table` (not the primary key or unique constraints): name and DDL. For a
 * partitioned table, the DDL `pg_indexes` gives is `CREATE INDEX ... ON ONLY <parent>` (an
 * index of the parent alone, left invalid until each partition's is attached); here it is
 * `ON <parent>`, which builds every partition's index too.
 */
export async function secondaryIndexes(client: pg.PoolClient, table: string): Promise<{ indexname: string; indexdef: string }[]> {
  const { rows } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT i.indexname, replace(i.indexdef, ' ON ONLY ', ' ON ') AS indexdef FROM pg_indexes i
      WHERE i.tablename = $1 AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [table],
  );
  return rows;
}

/** Bytes on disk of `table` with its indexes and TOAST, its partitions included (a partitioned parent holds none itself). */
export async function tableBytes(client: pg.Pool | pg.PoolClient, table: string): Promise<number> {
  const { rows } = await client.query<{ bytes: string }>(
    `SELECT (pg_total_relation_size($1::regclass)
       + coalesce((SELECT sum(pg_total_relation_size(inhrelid)) FROM pg_inherits WHERE inhparent = $1::regclass), 0))::bigint AS bytes`,
    [table],
  );
  return Number(rows[0]!.bytes);
}
