/**
 * Data of the Webhooks page (docs/webhooks.md): the project's alert endpoints and their recent
 * deliveries through the dashboard server's /api/projects/:projectId/webhooks routes, with one
 * TanStack Query key family per resource.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { CreatedWebhook, NewWebhook, WebhookDelivery, WebhookDeliveryList, WebhookList } from "../../../server/contract";
import { request } from "../../lib/api";

/** Query keys of the feature. */
export const webhookKeys = {
  list: (projectId: string) => ["webhooks", projectId] as const,
  deliveries: (projectId: string, endpointId: string) => ["webhooks", projectId, endpointId, "deliveries"] as const,
};

const base = (projectId: string) => `/api/projects/${projectId}/webhooks`;

/** The project's endpoints. */
export const useWebhooks = (projectId: string) => useQuery({ queryKey: webhookKeys.list(projectId), queryFn: () => request<WebhookList>(base(projectId)) });

/** Recent deliveries of one endpoint (none while `endpointId` is null); refreshed every 5 s. */
export const useDeliveries = (projectId: string, endpointId: string | null) =>
  useQuery({
    queryKey: webhookKeys.deliveries(projectId, endpointId ?? ""),
    queryFn: () => request<WebhookDeliveryList>(`${base(projectId)}/${endpointId}/deliveries`),
    enabled: endpointId !== null,
    refetchInterval: 5_000,
  });

/** Create, test and delete, each refreshing what it changes. */
export function useWebhookActions(projectId: string, onError: (e: Error) => void) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list(projectId) });
  return {
    create: useMutation({ mutationFn: (w: NewWebhook) => request<CreatedWebhook>(base(projectId), { json: w }), onError, onSettled: refresh }),
    test: useMutation({
      mutationFn: (id: string) => request<WebhookDelivery>(`${base(projectId)}/${id}/test`, { json: {} }),
      onError,
      onSettled: (_d, _e, id) => queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(projectId, id) }),
    }),
    remove: useMutation({ mutationFn: (id: string) => request(`${base(projectId)}/${id}`, { method: "DELETE" }), onError, onSettled: refresh }),
  };
}
