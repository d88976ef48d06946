/** Whether a project has logged a call yet, and the public URLs its snippets use. */
import { useQuery } from "@tanstack/react-query";
import { api, routeQuery } from "../../lib/api";

/** The project's activity; with `poll` (the default) asks again every 5 s until the first call is logged. */
export function useActivity(projectId: string, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({
    ...routeQuery(api.projects[":projectId"].activity, { param: { projectId } }),
    refetchInterval: (q) => (poll && !q.state.data?.has_requests ? 5000 : false),
  });
}
