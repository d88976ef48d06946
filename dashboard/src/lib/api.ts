/**
 * The browser's door to the dashboard server (/api): one fetch helper. Query keys and hooks
 * live with their feature (`src/features/<name>/hooks.ts`).
 */
import type { ErrorBody } from "../../server/contract";

/** A refusal of the dashboard's server, with its `{detail}`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/**
 * Calls a dashboard server route (same origin: the session cookie goes along, fetch's default) and
 * returns its JSON (null for 204). Writes always send JSON
 * (the server refuses anything else). Throws `RequestError` with the server's `{detail}`.
 */
export async function request<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.json !== undefined ? "POST" : "GET");
  const bodyless = method === "GET" || method === "DELETE";
  const res = await fetch(path, {
    method,
    headers: bodyless ? {} : { "Content-Type": "application/json" },
    body: bodyless ? undefined : JSON.stringify(init.json ?? {}),
  });
  if (res.status === 204) return null as T;
  const body = (await res.json().catch(() => ({}))) as Partial<ErrorBody>;
  if (!res.ok) throw new RequestError(res.status, body.detail ?? `request failed (${res.status})`);
  return body as T;
}

/** True for a refusal meaning "no such thing here" (404, or 422 for a malformed id). */
export const isNotFound = (e: unknown): boolean => e instanceof RequestError && (e.status === 404 || e.status === 422);
