/**
 * The one place that decides whether a failure means "the database cannot be reached now"
 * (the API answers 503 with `Retry-After`) rather than a bug or a query error (500).
 *
 * Decided by error type and code, never by message text, on both driver paths:
 * - An error PostgreSQL itself reported carries a SQLSTATE (`DatabaseError` of `pg` and of
 *   `@neondatabase/serverless`). Unavailable are class 08 (connection exception), class 53
 *   (insufficient resources: too many connections, out of memory, disk full) and
 *   57P01-57P03 (admin shutdown, crash shutdown, cannot connect now), per PostgreSQL's
 *   "Appendix A. PostgreSQL Error Codes". Every other SQLSTATE is a query error.
 * - An error the driver raised without any answer from the server (refused or reset socket,
 *   connect timeout, "Connection terminated" of pg and Neon, a closed WebSocket) is a transport
 *   failure. `guardDriver` wraps each such error, at the driver boundary, in
 *   `DatabaseUnreachableError`, so the type says what happened whatever the text.
 * - Node socket error codes (ECONNREFUSED, ECONNRESET, ETIMEDOUT, ...) anywhere in the
 *   `cause` chain, for errors that reach us from other paths.
 */

/** A driver error that came with no answer from PostgreSQL: the database is unreachable. */
export class DatabaseUnreachableError extends Error {
  override readonly name = "DatabaseUnreachableError";
  constructor(cause: unknown) {
    super("the database could not be reached", { cause });
  }
}

/** SQLSTATEs of an unreachable or overloaded server (see the module doc). */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|53[0-9A-Z]{3}|57P0[123])$/;

/** SQLSTATE foreign_key_violation: the referenced row (a key's project, a project's organisation) does not exist. */
export const FOREIGN_KEY_VIOLATION = "23503";

/** A SQLSTATE is five characters of digits and upper-case letters. */
const SQLSTATE = /^[0-9A-Z]{5}$/;

/** Node.js system error codes of a failed or dropped TCP connection or name lookup. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * True when `err` was reported by the PostgreSQL server (it carries a SQLSTATE `code` and a
 * `severity`, the fields both drivers' `DatabaseError` copy from the ErrorResponse message).
 */
export function isServerReported(err: unknown): err is { code: string; severity: string } {
  if (typeof err !== "object" || err === null) return false;
  const { code, severity } = err as { code?: unknown; severity?: unknown };
  return typeof code === "string" && SQLSTATE.test(code) && typeof severity === "string";
}

/** `err` and the errors of its `cause` chain (drizzle wraps driver errors in `DrizzleQueryError`), objects only, at most 8. */
function* causeChain(err: unknown): Generator<object> {
  for (let e: unknown = err, depth = 0; typeof e === "object" && e !== null && depth < 8; depth++) {
    yield e;
    e = (e as { cause?: unknown }).cause;
  }
}

/** The SQLSTATE PostgreSQL reported for `err` (or an error in its `cause` chain), if any. */
export function sqlStateOf(err: unknown): string | undefined {
  for (const e of causeChain(err)) if (isServerReported(e)) return e.code;
  return undefined;
}

/**
 * SQLSTATE classes that mean "this data can never be stored", not "the database is unwell":
 * 22 data exception, 23 integrity constraint violation, 42 syntax error or access rule
 * violation, 54 program limit exceeded
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html).
 */
export const DATA_ERROR_CLASSES: ReadonlySet<string> = new Set(["22", "23", "42", "54"]);

/** True when PostgreSQL refused the data itself: the SQLSTATE of `err` (or its causes) is of one of `classes`. */
export function isDataError(err: unknown, classes: ReadonlySet<string> = DATA_ERROR_CLASSES): boolean {
  const state = sqlStateOf(err);
  return state !== undefined && classes.has(state.slice(0, 2));
}

/**
 * True when `err` (or an error in its `cause` chain, as drizzle wraps driver errors in
 * `DrizzleQueryError`) means the database cannot be reached or is shutting down.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (const e of causeChain(err)) {
    if (e instanceof DatabaseUnreachableError) return true;
    if (isServerReported(e)) return UNAVAILABLE_SQLSTATE.test(e.code);
    const { code } = e as { code?: unknown };
    if (typeof code === "string" && SOCKET_CODES.has(code)) return true;
  }
  return false;
}

/** What a driver error becomes at the boundary: as is when the server answered, else wrapped. */
function classified(err: unknown): unknown {
  return isServerReported(err) || err instanceof DatabaseUnreachableError ? err : new DatabaseUnreachableError(err);
}

/** The subset of a pg-compatible pool (pg's and Neon's `Pool`) that drizzle uses. */
interface PoolLike {
  query: (...args: never[]) => unknown;
  connect: (...args: never[]) => unknown;
}

type Queryable = { query: (...args: unknown[]) => unknown };

/** Clients already guarded (a pool hands the same client out again). */
const guarded = new WeakSet<object>();

/** Makes a promise-returning `query` of `target` reject with classified errors. */
function guardQuery(target: Queryable): void {
  if (guarded.has(target)) return;
  guarded.add(target);
  const query = target.query.bind(target);
  target.query = (...args: unknown[]) => {
    const result = query(...args);
    return result instanceof Promise ? result.catch((err: unknown) => Promise.reject(classified(err))) : result;
  };
}

/**
 * Guards a pool at the driver boundary: a query or connect of the promise API that fails
 * without a server answer rejects with `DatabaseUnreachableError` (its `cause` is the
 * driver's error). Callback forms (used inside the pool itself) pass through unchanged.
 * Returns the same pool, so `instanceof Pool` checks (drizzle's transactions) still hold.
 */
export function guardDriver<P extends PoolLike>(pool: P): P {
  guardQuery(pool as unknown as Queryable);
  const target = pool as unknown as { connect: (...args: unknown[]) => unknown };
  const connect = target.connect.bind(pool);
  target.connect = (...args: unknown[]) => {
    if (args.length > 0) return connect(...args);
    return (connect() as Promise<Queryable>).then(
      (client) => {
        guardQuery(client);
        return client;
      },
      (err: unknown) => Promise.reject(classified(err)),
    );
  };
  return pool;
}
