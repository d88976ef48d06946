/**
 * The API's one logging helper: JSON lines with a message and named fields, and errors
 * described by their type only. Never logs payloads or key material: an error's message can
 * quote SQL parameters (drizzle's "Failed query: ... params: ..."), request bodies (a JSON
 * SyntaxError quotes the text) or key hashes, so only names, codes and stack frames are kept.
 */

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

/** Logs an error line: `{msg, ...fields, error: describeError(err)}`. */
export function logError(msg: string, fields: LogFields, err?: unknown): void {
  console.error(JSON.stringify({ level: "error", msg, ...fields, ...(err === undefined ? {} : { error: describeError(err) }) }));
}

/** Logs an information line: `{msg, ...fields}`. */
export function logInfo(msg: string, fields: LogFields): void {
  console.log(JSON.stringify({ level: "info", msg, ...fields }));
}
