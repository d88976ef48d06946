/**
 * The request views' data (TanStack Query): keyset pages with live refresh, counts, one
 * request's detail, and review verdicts. Every key starts with `["requests", projectId]`, so a
 * review invalidates the list, the counts, the triage queue and the detail at once.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReviewVerdict } from "../../../server/contract";
import { request } from "../../lib/api";
import { isUuid } from "./filters";
import type { Detail, RowPage } from "./types";

/** Query keys of the feature. */
export const requestKeys = {
  all: (projectId: string) => ["requests", projectId] as const,
  page: (projectId: string, filters: string, cursor: string, limit: number) => ["requests", projectId, "page", filters, cursor, limit] as const,
  count: (projectId: string, filters: string) => ["requests", projectId, "count", filters] as const,
  detail: (projectId: string, id: string, filters: string, reveal: boolean) => ["requests", projectId, "detail", id, filters, reveal] as const,
};

/** How often an empty first page asks again, whatever the live setting (ms): the first call shows up by itself. */
export const EMPTY_POLL_MS = 5_000;

/**
 * One keyset page of the filtered list. Live (`live` ms > 0): the first page is asked again at
 * that interval, so new calls appear at the top and pending scores fill in; an older page only
 * while some of its rows still wait for scores. An empty first page asks every 5 s even with
 * live off.
 */
export function useRequestPage(projectId: string, filters: string, cursor: string, live: number, limit = 50) {
  return useQuery({
    queryKey: requestKeys.page(projectId, filters, cursor, limit),
    queryFn: () => request<RowPage>(`/api/projects/${projectId}/requests?limit=${limit}${filters ? `&${filters}` : ""}${cursor ? `&cursor=${cursor}` : ""}`),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === filters ? previous : undefined),
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
    queryKey: requestKeys.count(projectId, filters),
    queryFn: () => request<{ total: number }>(`/api/projects/${projectId}/requests/count${filters ? `?${filters}` : ""}`),
    enabled: opts.enabled ?? true,
    refetchInterval: opts.refetchInterval ?? false,
  });
}

/**
 * One request with bodies, scores and its neighbours among `filters`. An id that is not a UUID
 * is never asked for: the drawer shows "not found" at once (the server answers 404 too).
 */
export function useRequestDetail(projectId: string, id: string, filters: string, reveal: boolean) {
  return useQuery({
    queryKey: requestKeys.detail(projectId, id, filters, reveal),
    queryFn: () => request<Detail>(`/api/projects/${projectId}/requests/${id}?neighbours=true${filters ? `&${filters}` : ""}${reveal ? "&reveal=true" : ""}`),
    enabled: isUuid(id),
    // While scores are pending, ask again: they fill in by themselves.
    refetchInterval: (q) => (q.state.data && q.state.data.safety_scores.length === 0 ? 5_000 : false),
  });
}

/** Records a verdict on a score; afterwards every view of the project's requests is refreshed. */
export function useReview(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ scoreId, verdict }: { scoreId: string; verdict: ReviewVerdict }) =>
      request(`/api/projects/${projectId}/safety-scores/${scoreId}/review`, { json: { verdict } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestKeys.all(projectId) }),
  });
}
