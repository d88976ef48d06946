/**
 * The browser's door to the dashboard server (/api): Hono's RPC client typed with the server
 * app's own type (`DashboardApp`, a type-only import: nothing of the server reaches the bundle),
 * so every path, parameter, query and response body is the server's. `unwrap` turns an answer
 * into its typed body; `routeQuery` gives TanStack Query a key derived from the same path.
 * Query keys and hooks live with their feature (`src/features/<name>/hooks.ts`).
 */
import { type ClientResponse, hc, type parseResponse } from "hono/client";
import type { DashboardApp } from "../../server/app";
import type { ErrorBody } from "../../server/contract";

/** The dashboard server's routes under /api (same origin: the session cookie goes along, fetch's default). */
export const api = hc<DashboardApp>("/").api;

/** A refusal of the dashboard's server, with its `{detail}`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** The success body of a client call: its 2xx JSON (undefined for a 204). */
export type Body<R extends ClientResponse<unknown>> = Awaited<ReturnType<typeof parseResponse<R>>>;

/** True for the server's refusal body, `{detail}`. */
const isErrorBody = (body: unknown): body is ErrorBody => typeof body === "object" && body !== null && "detail" in body && typeof body.detail === "string";

/** The `detail` of a refusal's JSON body, if it has one. */
async function detailOf(res: ClientResponse<unknown>): Promise<string | undefined> {
  const body: unknown = await res.json().catch(() => undefined);
  return isErrorBody(body) ? body.detail : undefined;
}

/**
 * Awaits a client call and returns its typed body (undefined for 204). Throws `RequestError` with
 * the server's `{detail}` (or "request failed (status)") for any other answer than a 2xx.
 */
export async function unwrap<R extends ClientResponse<unknown>>(call: Promise<R>): Promise<Body<R>> {
  const res = await call;
  if (!res.ok) throw new RequestError(res.status, (await detailOf(res)) ?? `request failed (${res.status})`);
  if (res.status === 204) return undefined as Body<R>;
  return (await res.json()) as Body<R>;
}

/**
 * The TanStack Query key of a route path as the client builds it (`$path`): its segments, then
 * its query as an object. Keys share prefixes as paths do, so the key of a path (e.g.
 * `/api/projects/:id/requests`) matches every query under it for invalidation.
 */
export function pathKey(path: string): readonly unknown[] {
  const [route = "", search] = path.split("?");
  const segments = route.split("/").filter(Boolean);
  return search ? [...segments, Object.fromEntries(new URLSearchParams(search))] : segments;
}

/** A GET route of the client (`api....`): its call and its path for the same arguments. */
interface GetRoute<A, R extends ClientResponse<unknown>> {
  $get(args: A): Promise<R>;
  $path(args: A): string;
}

/** Query options of a GET route with `args`: the key from its path (`pathKey`), the typed body as data. */
export function routeQuery<A, R extends ClientResponse<unknown>>(route: GetRoute<A, R>, args: A) {
  return { queryKey: pathKey(route.$path(args)), queryFn: () => unwrap(route.$get(args)) };
}

/**
 * Client options of a write that sends no fields (rotate, revoke, test, portal): the server takes
 * writes as JSON only (its CSRF guard), so the body is an empty JSON object.
 */
export const EMPTY_JSON = { init: { headers: { "Content-Type": "application/json" }, body: "{}" } };

/** True for a refusal meaning "no such thing here" (404, or 422 for a malformed id). */
export const isNotFound = (e: unknown): boolean => e instanceof RequestError && (e.status === 404 || e.status === 422);
