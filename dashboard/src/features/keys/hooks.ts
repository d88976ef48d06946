/**
 * API keys of a project (docs/interface.md section 3.1) through the dashboard server:
 * list, create with chosen scopes (the full key is in the answer, once), rotate, revoke, delete.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyList, ApiKeyScope, NewApiKey, RotatedApiKey } from "../../../server/contract";
import { request } from "../../lib/api";

/** Query keys of the feature. */
export const keyKeys = { list: (projectId: string) => ["keys", projectId] as const };

/** The project's keys. */
export function useKeys(projectId: string) {
  return useQuery({ queryKey: keyKeys.list(projectId), queryFn: () => request<ApiKeyList>(`/api/projects/${projectId}/keys`) });
}

/** Create, rotate, revoke, delete; `onError` gets each failure, the list refreshes after each. */
export function useKeyMutations(projectId: string, on: { created: (k: NewApiKey) => void; rotated: (k: NewApiKey) => void; error: (e: Error) => void }) {
  const queryClient = useQueryClient();
  const base = `/api/projects/${projectId}/keys`;
  const common = { onError: on.error, onSettled: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }) };
  return {
    create: useMutation({
      mutationFn: (key: { name: string; scopes: ApiKeyScope[] }) => request<NewApiKey>(base, { json: key }),
      onSuccess: on.created,
      ...common,
    }),
    rotate: useMutation({
      mutationFn: (id: string) => request<RotatedApiKey>(`${base}/${id}/rotate`, { json: {} }),
      onSuccess: (r) => on.rotated(r.key),
      ...common,
    }),
    revoke: useMutation({ mutationFn: (id: string) => request(`${base}/${id}/revoke`, { json: {} }), ...common }),
    remove: useMutation({ mutationFn: (id: string) => request(`${base}/${id}`, { method: "DELETE" }), ...common }),
  };
}
