/** Whether a project has logged a call yet, and the public URLs its snippets use. */
import { useQuery } from "@tanstack/react-query";
import type { Activity } from "../../../server/contract";
import { request } from "../../lib/api";

/** Query keys of the feature. */
export const activityKeys = { project: (projectId: string) => ["activity", projectId] as const };

/** The project's activity; with `poll` (the default) asks again every 5 s until the first call is logged. */
export function useActivity(projectId: string, { poll = true }: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: activityKeys.project(projectId),
    queryFn: () => request<Activity>(`/api/projects/${projectId}/activity`),
    refetchInterval: (q) => (poll && !q.state.data?.has_requests ? 5000 : false),
  });
}
