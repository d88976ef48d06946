/**
 * API keys of a project (docs/interface.md section 3.1) through the dashboard server:
 * list, create with chosen scopes (the full key is in the answer, once), rotate, revoke, delete.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ApiKeyScope, NewApiKey } from "../../../server/contract";
import { api, EMPTY_JSON, pathKey, routeQuery, unwrap } from "../../lib/api";

const keys = api.projects[":projectId"].keys;

/** Query keys of the feature (the list's path). */
export const keyKeys = { list: (projectId: string) => pathKey(keys.$path({ param: { projectId } })) };

/** The project's keys. */
export function useKeys(projectId: string) {
  return useQuery(routeQuery(keys, { param: { projectId } }));
}

/** Create, rotate, revoke and delete; each refreshes the list when settled. */
export function useKeyMutations(projectId: string, on: { created: (k: NewApiKey) => void; rotated: (k: NewApiKey) => void; error: (e: Error) => void }) {
  const queryClient = useQueryClient();
  const common = { onError: on.error, onSettled: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }) };
  const param = (keyId: string) => ({ param: { projectId, keyId } });
  return {
    create: useMutation({
      mutationFn: (key: { name: string; scopes: ApiKeyScope[] }) => unwrap(keys.$post({ param: { projectId }, json: key })),
      onSuccess: on.created,
      ...common,
    }),
    rotate: useMutation({
      mutationFn: (id: string) => unwrap(keys[":keyId"].rotate.$post(param(id), EMPTY_JSON)),
      onSuccess: (r) => on.rotated(r.key),
      ...common,
    }),
    revoke: useMutation({ mutationFn: (id: string) => unwrap(keys[":keyId"].revoke.$post(param(id), EMPTY_JSON)), ...common }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(keys[":keyId"].$delete(param(id))), ...common }),
  };
}
