/**
 * Projects of the signed-in user (GET /api/projects, which also creates a new account's first
 * project), the current one from the URL, and their changes: create (POST /api/projects),
 * rename (PATCH /api/projects/:id) and delete (DELETE /api/projects/:id), for owners and admins.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useParams } from "react-router";
import type { Project } from "../../../server/contract";
import { api, pathKey, routeQuery, unwrap } from "../../lib/api";

/** Query keys of the feature (the list's path). */
export const projectKeys = { all: pathKey(api.projects.$path()) };

/** The user's projects, oldest first. */
export function useProjects() {
  return useQuery({ ...routeQuery(api.projects, {}), staleTime: 60_000 });
}

/** The project named by `:projectId`, once the list is loaded (undefined: unknown or loading). */
export function useCurrentProject(): Project | undefined {
  const { projectId } = useParams();
  return useProjects().data?.items.find((p) => p.id === projectId);
}

/** Create, rename and delete; each refreshes the list when settled. */
export function useProjectMutations() {
  const queryClient = useQueryClient();
  const onSettled = () => queryClient.invalidateQueries({ queryKey: projectKeys.all });
  return {
    create: useMutation({
      mutationFn: (v: { name: string; organization_id: string }) => unwrap(api.projects.$post({ json: v })),
      onSettled,
    }),
    rename: useMutation({
      mutationFn: (v: { id: string; name: string }) => unwrap(api.projects[":projectId"].$patch({ param: { projectId: v.id }, json: { name: v.name } })),
      onSettled,
    }),
    // Not awaiting the refresh: the page of a deleted project moves on (in `mutate`'s onSuccess) before the list drops it.
    remove: useMutation({
      mutationFn: (id: string) => unwrap(api.projects[":projectId"].$delete({ param: { projectId: id } })),
      onSettled: () => void onSettled(),
    }),
  };
}
