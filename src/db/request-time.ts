/**
 * Where a request lives in time. `llm_requests` and `safety_scores` are partitioned by month of
 * the request's `created_at` (docs/storage.md), so every read keeps a `created_at` bound for
 * the planner to prune partitions. Reads that start from a request id (the detail, a keyset
 * anchor) learn its `created_at` here first: UUIDv7 ids carry a millisecond timestamp, which the
 * writers set at or near the call's `created_at`, so one probe inside `ID_TIME_SLACK_MS` of it
 * finds the row in one or two partitions; an id without a timestamp (the OTLP span's UUIDv8) or
 * a row outside the window (a client-supplied `created_at` far from receipt) falls back to a
 * probe of every partition's primary key. Statements about known requests (the scorer's loads and
 * writes, ingest's duplicate check, the sweep's claim) bound themselves the same way
 * (`requestsTimeCondition`, `readByRefs`), with the exact `created_at` when the caller has it.
 */
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { PgColumn } from "drizzle-orm/pg-core";
import { UUID, uuidv7 } from "uuidv7";
import type { Db } from "./driver/client";
import { llmRequests, safetyScores } from "./schema";

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
 * A `created_at` as PostgreSQL writes it (`1997-03-11 12:00:01.234567+00`) or ISO-8601, as a Date
 * (to the millisecond); undefined when it is not a time.
 */
export function storedTime(text: string): Date | undefined {
  const at = new Date(text.replace(" ", "T").replace(/([+-]\d{2})$/, "$1:00"));
  return Number.isNaN(at.getTime()) ? undefined : at;
}

/**
 * A request's `created_at` as PostgreSQL's text (microseconds kept; a JS Date would round them
 * to milliseconds), or null when the project has no request with this id. One probe within the
 * id's window, and a probe of every partition only when that misses (module doc).
 */
export async function requestCreatedAt(db: Db, projectId: string, id: string): Promise<string | null> {
  const [row] = await readByRefs(llmRequests.created_at, [{ id }], (bound) =>
    db
      .select({ id: llmRequests.id, created_at: sql<string>`${llmRequests.created_at}::text` })
      .from(llmRequests)
      .where(and(eq(llmRequests.project_id, projectId), eq(llmRequests.id, id), bound)),
  );
  return row?.created_at ?? null;
}

/**
 * A request as a statement names it: its id, and its `created_at` when the caller knows it
 * (PostgreSQL's text of the stored value, e.g. `StoredCall.created_at`, or the ISO instant it was
 * stored with). Without `created_at` the id's timestamp (`idTimeWindow`) stands in for it.
 */
export interface RequestRef {
  id: string;
  created_at?: string | null | undefined;
}

/**
 * The `created_at` condition (on `column`, of `llm_requests` or `safety_scores`) that keeps a
 * statement about the requests `refs`, or their scores, in those requests' months: equality with
 * each known `created_at`, and for the others the windows of their ids (merged where they
 * overlap). Constants, so the planner prunes partitions. Undefined when some ref has neither (an
 * id without a timestamp): the statement then reads every partition.
 */
export function requestsTimeCondition(column: PgColumn | SQL, refs: readonly RequestRef[]): SQL | undefined {
  const exact = new Set<string>();
  const windows: { from: number; to: number }[] = [];
  for (const ref of refs) {
    if (ref.created_at) {
      exact.add(ref.created_at);
      continue;
    }
    const w = idTimeWindow(ref.id);
    if (!w) return undefined;
    windows.push({ from: w.from.getTime(), to: w.to.getTime() });
  }
  windows.sort((a, b) => a.from - b.from);
  const merged: { from: number; to: number }[] = [];
  for (const w of windows) {
    const last = merged.at(-1);
    if (last && w.from <= last.to) last.to = Math.max(last.to, w.to);
    else merged.push({ ...w });
  }
  const conds = merged.map((w) => timeCondition(column, { start: new Date(w.from), end: new Date(w.to) }));
  if (exact.size > 0)
    conds.push(
      sql`${column} IN (${sql.join(
        [...exact].map((t) => sql`${t}::timestamptz`),
        sql`, `,
      )})`,
    );
  return conds.length > 0 ? sql`(${sql.join(conds, sql` OR `)})` : sql`false`;
}

/** `column` (an id column) among the ids of `refs`, within `bound` (a `readByRefs` bound) when given. */
export function idsWithin(column: PgColumn, refs: readonly RequestRef[], bound: SQL | undefined): SQL {
  return and(
    inArray(
      column,
      refs.map((r) => r.id),
    ),
    bound,
  )!;
}

/**
 * A score row and its request: same id and same `created_at` (a score carries its request's, the
 * partition key of both tables), so a join reads the same month on both sides.
 */
export const scoreOfRequest = (): SQL => and(eq(safetyScores.request_id, llmRequests.id), eq(safetyScores.created_at, llmRequests.created_at))!;

/**
 * Runs `run` (a read, or an idempotent write, returning the rows it found by id) over `refs`
 * bounded by `requestsTimeCondition` on `column`, then once more without a bound for the refs it missed whose
 * time was only guessed from their id (a client-supplied `created_at` far from the id's time, an
 * OTLP span without a start, an id stored before ids carried time); a ref with a known
 * `created_at` is never looked for again. Returns the rows of both runs. `run` gets the bound
 * (undefined: none) and the refs it covers.
 */
export async function readByRefs<T extends { id: string }>(
  column: PgColumn | SQL,
  refs: readonly RequestRef[],
  run: (bound: SQL | undefined, refs: readonly RequestRef[]) => Promise<T[]>,
): Promise<T[]> {
  if (refs.length === 0) return [];
  const bound = requestsTimeCondition(column, refs);
  const found = await run(bound, refs);
  if (bound === undefined) return found;
  const seen = new Set(found.map((r) => r.id.toLowerCase()));
  const missed = refs.filter((r) => !r.created_at && !seen.has(r.id.toLowerCase()));
  return missed.length > 0 ? [...found, ...(await run(undefined, missed))] : found;
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
