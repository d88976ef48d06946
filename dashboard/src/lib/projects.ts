/** The signed-in user's projects (TanStack Query) and the current one from the URL. */
import { useQuery } from "@tanstack/react-query";
import { useParams } from "react-router";
import { queryKeys, request, type Project } from "./api";

/** GET /api/projects (creates a new account's first project on the server). */
export function useProjects() {
  return useQuery({
    queryKey: queryKeys.projects,
    queryFn: () => request<{ items: Project[]; user: { email: string; name: string } }>("/api/projects"),
    staleTime: 60_000,
  });
}

/** The project named by `:projectId`, once the list is loaded (undefined: unknown). */
export function useCurrentProject(): Project | undefined {
  const { projectId } = useParams();
  return useProjects().data?.items.find((p) => p.id === projectId);
}
