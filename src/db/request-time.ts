/**
 * Where a request lives in time. `llm_requests` and `safety_scores` are partitioned by month of
 * the request's `created_at` (docs/storage.md), so every read keeps a `created_at` bound for
 * the planner to prune partitions. Reads that start from a request id (the detail, a keyset
 * anchor) learn its `created_at` here first: UUIDv7 ids carry a millisecond timestamp, which the
 * writers set at or near the call's `created_at`, so one probe inside `ID_TIME_SLACK_MS` of it
 * finds the row in one or two partitions; an id without a timestamp (the OTLP span's UUIDv8) or
 * a row outside the window (a client-supplied `created_at` far from receipt) falls back to a
 * probe of every partition's primary key.
 */
import { and, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { UUID, uuidv7 } from "uuidv7";
import type { Db } from "./driver/client";
import { llmRequests } from "./schema";

/**
 * Half-width of the window around a UUIDv7 id's timestamp searched first, ms (one day): the
 * proxy stamps the record id when the response ends and `created_at` when the call started, so
 * the two differ by the call's duration (minutes at most; a day covers clock skew besides).
 */
export const ID_TIME_SLACK_MS = 86_400_000;

/**
 * The time window `[from, to)` a request id points to, or null when the id carries no time: a
 * UUIDv7 (RFC 9562 section 5.7) or Sightline's OTLP UUIDv8 begins with 48 bits of big-endian Unix
 * milliseconds (version nibble 7 or 8).
 */
export function idTimeWindow(id: string): { from: Date; to: Date } | null {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[78][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) return null;
  const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
  return { from: new Date(ms - ID_TIME_SLACK_MS), to: new Date(ms + ID_TIME_SLACK_MS) };
}

/**
 * A new request id: a UUIDv7 whose timestamp is `createdAt` (the call's start, when the producer
 * gave it), so `idTimeWindow` finds the row at once; the current time when absent.
 */
export function requestIdAt(createdAt?: Date): string {
  if (!createdAt) return uuidv7();
  const r = crypto.getRandomValues(new Uint32Array(3));
  return UUID.fromFieldsV7(createdAt.getTime(), r[0]! & 0xfff, r[1]! & 0x3fffffff, r[2]!).toString();
}

/**
 * A request's `created_at` as PostgreSQL's text (microseconds kept; a JS Date would round them
 * to milliseconds), or null when the project has no request with this id. One probe within the
 * id's window, and a probe of every partition only when that misses (module doc).
 */
export async function requestCreatedAt(db: Db, projectId: string, id: string): Promise<string | null> {
  const probe = async (bound: SQL[]) => {
    const [row] = await db
      .select({ created_at: sql<string>`${llmRequests.created_at}::text` })
      .from(llmRequests)
      .where(and(eq(llmRequests.project_id, projectId), eq(llmRequests.id, id), ...bound));
    return row?.created_at ?? null;
  };
  const window = idTimeWindow(id);
  return (window && (await probe([gte(llmRequests.created_at, window.from), lt(llmRequests.created_at, window.to)]))) || probe([]);
}

/**
 * A time bound on request time: any of `created_at >= start`, `< end`, `<= atMost`, `>= atLeast`
 * (`atMost`/`atLeast`: a keyset anchor's `created_at` text). Constants, so the planner prunes
 * partitions when it plans the statement.
 */
export interface TimeBound {
  start?: Date | undefined;
  end?: Date | undefined;
  atMost?: string | undefined;
  atLeast?: string | undefined;
}

/** The conditions of `bound` on `column` (a `created_at` of `llm_requests` or `safety_scores`, or its SQL). */
export function timeConditions(column: PgColumn | SQL, bound: TimeBound): SQL[] {
  const conds: SQL[] = [];
  if (bound.start) conds.push(sql`${column} >= ${bound.start.toISOString()}::timestamptz`);
  if (bound.end) conds.push(sql`${column} < ${bound.end.toISOString()}::timestamptz`);
  if (bound.atLeast) conds.push(sql`${column} >= ${bound.atLeast}::timestamptz`);
  if (bound.atMost) conds.push(sql`${column} <= ${bound.atMost}::timestamptz`);
  return conds;
}

/** `timeConditions` as one condition (`true` when `bound` has none), for SQL written by hand. */
export function timeCondition(column: PgColumn | SQL, bound: TimeBound): SQL {
  return and(...timeConditions(column, bound)) ?? sql`true`;
}
