/** The filter part of the Requests address: which parameters are filters, passed to the API unchanged. */
import { SCORER_NAMES } from "../../../server/contract";

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

/** The Requests filter of a time span [start, end) (epoch ms), e.g. one chart bucket. */
export function spanQuery(start: number, end: number): string {
  return new URLSearchParams({ start: new Date(start).toISOString(), end: new Date(end).toISOString() }).toString();
}

/** True for a canonical UUID (any version), the only form a request id has. */
export const isUuid = (s: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
