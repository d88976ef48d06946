/**
 * The one logging helper of the API, scorer and proxy workers: JSON lines with a level, a
 * message and named fields, and errors described by their type only. Never logs payloads or
 * key material: an error's message can quote SQL parameters (drizzle's "Failed query: ...
 * params: ..."), request bodies (a JSON SyntaxError quotes the text) or key hashes, so only
 * names, codes and stack frames are kept.
 *
 * Every line written while a unit of work runs inside `withLogContext` (an HTTP request, a
 * queue message) carries that context's fields, e.g. `http_request_id`, without each call
 * passing them: the context lives in an AsyncLocalStorage (the `nodejs_als` compatibility
 * flag in each worker's wrangler.jsonc), so it also reaches helpers that never see the request.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** What of an error may be logged: its class name, its code (SQLSTATE or system code), the
 * same for each `cause`, and the stack frames without the message line. */
export interface LoggedError {
  name: string;
  code?: string;
  frames?: string[];
  cause?: LoggedError;
}

/** The loggable part of `err` (see `LoggedError`), following up to 4 causes. */
export function describeError(err: unknown, depth = 0): LoggedError {
  if (typeof err !== "object" || err === null) return { name: typeof err };
  const e = err as { name?: unknown; code?: unknown; stack?: unknown; cause?: unknown; constructor?: { name?: string } };
  const out: LoggedError = { name: typeof e.name === "string" ? e.name : (e.constructor?.name ?? "object") };
  if (typeof e.code === "string" && /^[A-Za-z0-9_]{1,40}$/.test(e.code)) out.code = e.code;
  // Frames only: every stack line that starts with "at " (the first lines hold the message).
  if (typeof e.stack === "string")
    out.frames = e.stack
      .split("\n")
      .filter((l) => /^\s+at /.test(l))
      .slice(0, 8)
      .map((l) => l.trim());
  if (e.cause !== undefined && depth < 4) out.cause = describeError(e.cause, depth + 1);
  return out;
}

/** Fields of a log line: identifiers and counts, never bodies, SQL parameters or keys. */
export type LogFields = Record<string, string | number | boolean | null | undefined>;

/** Response (and request) header carrying the id of an HTTP request, as hono/request-id names it. */
export const REQUEST_ID_HEADER = "X-Request-Id";

const context = new AsyncLocalStorage<LogFields>();

/**
 * Runs `fn` with `fields` added to every line logged until it settles (nested contexts add
 * to the outer one). Use one per unit of work: `{http_request_id}` per HTTP request,
 * `{message_id, request_id}` per queue message.
 */
export function withLogContext<T>(fields: LogFields, fn: () => T): T {
  return context.run({ ...context.getStore(), ...fields }, fn);
}

const line = (level: "error" | "warn" | "info", msg: string, fields: LogFields, err: unknown) =>
  JSON.stringify({ level, msg, ...context.getStore(), ...fields, ...(err === undefined ? {} : { error: describeError(err) }) });

/** Logs an error line: `{level, msg, ...context, ...fields, error: describeError(err)}`. */
export function logError(msg: string, fields: LogFields, err?: unknown): void {
  console.error(line("error", msg, fields, err));
}

/** Logs a warning line (a problem handled without failing the work): as `logError`. */
export function logWarn(msg: string, fields: LogFields, err?: unknown): void {
  console.warn(line("warn", msg, fields, err));
}

/** Logs an information line: `{level, msg, ...context, ...fields}`. */
export function logInfo(msg: string, fields: LogFields): void {
  console.log(line("info", msg, fields, undefined));
}
