/**
 * Data of the Webhooks page (docs/webhooks.md): the project's alert endpoints and their recent
 * deliveries through the dashboard server's /api/projects/:projectId/webhooks routes, with one
 * TanStack Query key family per resource.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { NewWebhook } from "../../../server/contract";
import { api, EMPTY_JSON, pathKey, routeQuery, unwrap } from "../../lib/api";

const webhooks = api.projects[":projectId"].webhooks;

/** Query keys of the feature. */
export const webhookKeys = {
  list: (projectId: string) => pathKey(webhooks.$path({ param: { projectId } })),
  deliveries: (projectId: string, id: string) => pathKey(webhooks[":id"].deliveries.$path({ param: { projectId, id } })),
};

/** The project's endpoints. */
export const useWebhooks = (projectId: string) => useQuery(routeQuery(webhooks, { param: { projectId } }));

/** Recent deliveries of one endpoint (none while `endpointId` is null); refreshed every 5 s. */
export const useDeliveries = (projectId: string, endpointId: string | null) =>
  useQuery({
    ...routeQuery(webhooks[":id"].deliveries, { param: { projectId, id: endpointId ?? "" } }),
    enabled: endpointId !== null,
    refetchInterval: 5_000,
  });

/** Create, test and delete, each refreshing what it changes. */
export function useWebhookActions(projectId: string, onError: (e: Error) => void) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectId) });
  return {
    create: useMutation({ mutationFn: (w: NewWebhook) => unwrap(webhooks.$post({ param: { projectId }, json: w })), onError, onSettled: refresh }),
    test: useMutation({
      mutationFn: (id: string) => unwrap(webhooks[":id"].test.$post({ param: { projectId, id } }, EMPTY_JSON)),
      onError,
      onSettled: (_d, _e, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId, id) }),
    }),
    remove: useMutation({ mutationFn: (id: string) => unwrap(webhooks[":id"].$delete({ param: { projectId, id } })), onError, onSettled: refresh }),
  };
}
