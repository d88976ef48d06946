/**
 * The Sessions views' data (TanStack Query): a page of conversations and one conversation's calls
 * with its session score (docs/sessions.md). Keys start with `["sessions", projectId]`.
 */
import { useQuery } from "@tanstack/react-query";
import type { SessionDetail, SessionPage } from "../../../server/contract";
import { request } from "../../lib/api";

/** Sessions per page of the list. */
export const SESSIONS_PER_PAGE = 50;

/** One page (from 1) of the project's sessions, most recently active first; refreshed every 30 s. */
export function useSessionPage(projectId: string, page: number) {
  return useQuery({
    queryKey: ["sessions", projectId, "page", page],
    queryFn: () => request<SessionPage>(`/api/projects/${projectId}/sessions?page=${page}&page_size=${SESSIONS_PER_PAGE}`),
    refetchInterval: 30_000,
  });
}

/** One session: its calls oldest first (stored text masked) and its session scores. */
export function useSession(projectId: string, sessionId: string) {
  return useQuery({
    queryKey: ["sessions", projectId, "detail", sessionId],
    queryFn: () => request<SessionDetail>(`/api/projects/${projectId}/sessions/${encodeURIComponent(sessionId)}`),
    refetchInterval: (q) => (q.state.data?.calls.some((c) => c.scores.length === 0) ? 5_000 : false),
  });
}
