/**
 * The request views' data (TanStack Query): keyset pages with live refresh, counts, one
 * request's detail, and review verdicts. Every key starts with the path of the project's
 * requests (`requestKeys.all`), so a review invalidates the list, the counts, the triage queue
 * and the detail at once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ExportFormat, ReviewVerdict } from "../../../server/contract";
import { api, pathKey, routeQuery, unwrap } from "../../lib/api";
import { filterParams, isUuid } from "./filters";

const requests = api.projects[":projectId"].requests;

/** The list route's arguments: `filters` (a filter query string), a keyset `cursor` (or none) and page size. */
const pageArgs = (projectId: string, filters: string, cursor: string, limit: number) => ({
  param: { projectId },
  query: { ...filterParams(filters), limit: String(limit), ...(cursor ? { cursor } : {}) },
});

/** Query keys of the feature (the routes' paths). */
export const requestKeys = {
  all: (projectId: string) => pathKey(requests.$path({ param: { projectId }, query: {} })),
  page: (projectId: string, filters: string, cursor: string, limit: number) => pathKey(requests.$path(pageArgs(projectId, filters, cursor, limit))),
};

/** How often an empty first page asks again, whatever the live setting (ms): the first call shows up by itself. */
export const EMPTY_POLL_MS = 5_000;

/**
 * One keyset page of the filtered list. Live (`live` ms > 0): the first page is asked again at
 * that interval, so new calls appear at the top and pending scores fill in; an older page only
 * while some of its rows still wait for scores. An empty first page asks every 5 s even with
 * live off. While another page of the same filters loads, the last one stays shown.
 */
export function useRequestPage(projectId: string, filters: string, cursor: string, live: number, limit = 50) {
  return useQuery({
    ...routeQuery(requests, pageArgs(projectId, filters, cursor, limit)),
    meta: { filters },
    placeholderData: (previous, previousQuery) => (previousQuery?.meta?.filters === filters ? previous : undefined),
    refetchInterval: (q) => {
      const items = q.state.data?.items;
      if (!cursor && items?.length === 0) return live > 0 ? Math.min(live, EMPTY_POLL_MS) : EMPTY_POLL_MS;
      if (live === 0) return false;
      if (!cursor) return live;
      return items?.some((r) => r.scores.length === 0) ? live : false;
    },
  });
}

/** The number of requests matching `filters` (a separate, slower query that never blocks the rows). */
export function useRequestCount(projectId: string, filters: string, opts: { enabled?: boolean; refetchInterval?: number | false } = {}) {
  return useQuery({
    ...routeQuery(requests.count, { param: { projectId }, query: filterParams(filters) }),
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchInterval ?? false,
  });
}

/**
 * One request with bodies, scores and its neighbours among `filters`. An id that is not a UUID
 * is never asked for: the drawer shows "not found" at once (the server answers 404 too).
 */
export function useRequestDetail(projectId: string, id: string, filters: string, reveal: boolean) {
  const query = { ...filterParams(filters), neighbours: "true" as const, ...(reveal ? { reveal: "true" as const } : {}) };
  return useQuery({
    ...routeQuery(requests[":id"], { param: { projectId, id }, query }),
    enabled: isUuid(id),
    // While scores are pending, ask again: they fill in by themselves.
    refetchInterval: (q) => (q.state.data && q.state.data.safety_scores.length === 0 ? 5_000 : false),
  });
}

/** The export's path (a download link): the rows matching `filters` as CSV or JSONL, personal data masked. */
export const exportPath = (projectId: string, filters: string, format: ExportFormat) =>
  requests.export.$path({ param: { projectId }, query: { ...filterParams(filters), format } });

/** Records a verdict on a score; afterwards every view of the project's requests is refreshed. */
export function useReview(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scoreId, verdict }: { scoreId: string; verdict: ReviewVerdict }) =>
      unwrap(api.projects[":projectId"]["safety-scores"][":scoreId"].review.$post({ param: { projectId, scoreId }, json: { verdict } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestKeys.all(projectId) }),
  });
}
