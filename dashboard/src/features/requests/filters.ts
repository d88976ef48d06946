/** The filter part of the Requests address: which parameters are filters, passed to the API unchanged. */
import type { InferRequestType } from "hono/client";
import { SCORER_NAMES } from "../../../server/contract";
import type { api } from "../../lib/api";

/** Filter parameters kept in the URL. */
export const FILTER_KEYS = ["start", "end", "model", "provider", "status", "q", "min_score", "scorer", "reviewed", ...SCORER_NAMES.map((s) => `label[${s}]`)];

/** The filter part of `params` as a query string (no cursor, no open drawer). */
export function filterQuery(params: URLSearchParams): string {
  const out = new URLSearchParams();
  for (const k of FILTER_KEYS) {
    const v = params.get(k);
    if (v) out.set(k, v);
  }
  return out.toString();
}

/** The filters as the dashboard server takes them: the query of its count route (filters and `after`). */
export type FilterParams = InferRequestType<(typeof api.projects)[":projectId"]["requests"]["count"]["$get"]>["query"];

/**
 * A filter query string (`filterQuery`, `spanQuery`) as the server's query object. Its values come
 * from the address bar, unchecked here (the one assertion of the door): the server validates them
 * with the API's own schema and answers 422 naming a bad field, which the page shows.
 */
export const filterParams = (filters: string): FilterParams => Object.fromEntries(new URLSearchParams(filters)) as FilterParams;

/** The Requests filter of a time span [start, end) (epoch ms), e.g. one chart bucket. */
export function spanQuery(start: number, end: number): string {
  return new URLSearchParams({ start: new Date(start).toISOString(), end: new Date(end).toISOString() }).toString();
}

/** True for a canonical UUID (any version), the only form a request id has. */
export const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
