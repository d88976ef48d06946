/**
 * API keys of a project (docs/interface.md section 3.1) through the dashboard server:
 * list, create (the full key is in the answer, once), rotate, revoke, delete.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { request } from "../../lib/api";

/** An API key as listed (hint only). */
export interface ApiKey {
  id: string;
  name: string;
  key_hint: string;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A key with its full value: only in the create and rotate answers. */
export interface NewApiKey extends ApiKey {
  key: string;
}

/** Query keys of the feature. */
export const keyKeys = { list: (projectId: string) => ["keys", projectId] as const };

/** The project's keys. */
export function useKeys(projectId: string) {
  return useQuery({ queryKey: keyKeys.list(projectId), queryFn: () => request<{ items: ApiKey[] }>(`/api/projects/${projectId}/keys`) });
}

/** Create, rotate, revoke, delete; `onError` gets each failure, the list refreshes after each. */
export function useKeyMutations(projectId: string, on: { created: (k: NewApiKey) => void; rotated: (k: NewApiKey) => void; error: (e: Error) => void }) {
  const queryClient = useQueryClient();
  const base = `/api/projects/${projectId}/keys`;
  const common = { onError: on.error, onSettled: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }) };
  return {
    create: useMutation({ mutationFn: (name: string) => request<NewApiKey>(base, { json: { name } }), onSuccess: on.created, ...common }),
    rotate: useMutation({
      mutationFn: (id: string) => request<{ key: NewApiKey }>(`${base}/${id}/rotate`, { json: {} }),
      onSuccess: (r) => on.rotated(r.key),
      ...common,
    }),
    revoke: useMutation({ mutationFn: (id: string) => request(`${base}/${id}/revoke`, { json: {} }), ...common }),
    remove: useMutation({ mutationFn: (id: string) => request(`${base}/${id}`, { method: "DELETE" }), ...common }),
  };
}
