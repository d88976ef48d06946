/**
 * The Sessions views' data (TanStack Query): a page of conversations and one conversation's calls
 * with its session score (docs/sessions.md). Keys are the routes' paths (`routeQuery`).
 */
import { useQuery } from "@tanstack/react-query";
import { api, routeQuery } from "../../lib/api";

const sessions = api.projects[":projectId"].sessions;

/** Sessions per page of the list. */
export const SESSIONS_PER_PAGE = 50;

/** One page (from 1) of the project's sessions, most recently active first; refreshed every 30 s. */
export function useSessionPage(projectId: string, page: number) {
  return useQuery({
    ...routeQuery(sessions, { param: { projectId }, query: { page: String(page), page_size: String(SESSIONS_PER_PAGE) } }),
    refetchInterval: 30_000,
  });
}

/** One session: its calls oldest first (stored text masked) and its session scores. */
export function useSession(projectId: string, sessionId: string) {
  return useQuery({
    // The client puts path parameters in as they are: a session id is the caller's own text.
    ...routeQuery(sessions[":sessionId"], { param: { projectId, sessionId: encodeURIComponent(sessionId) } }),
    refetchInterval: (q) => (q.state.data?.calls.some((c) => c.scores.length === 0) ? 5_000 : false),
  });
}
