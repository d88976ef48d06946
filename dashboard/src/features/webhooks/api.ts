/**
 * Data of the Webhooks page (docs/webhooks.md): the project's alert endpoints and their recent
 * deliveries through the dashboard server's /api/projects/:projectId/webhooks routes, with one
 * TanStack Query key family per resource.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { request } from "../../lib/api";

/** An alert endpoint as listed (never with its secret). */
export interface WebhookEndpoint {
  id: string;
  url: string;
  min_score: number;
  /** null: every scorer. */
  scorers: string[] | null;
  format: "standard" | "slack";
  created_at: string;
}

/** The create answer: the endpoint and its signing secret, shown once. */
export interface CreatedWebhook extends WebhookEndpoint {
  secret: string;
}

/** One delivery (state `dead` is a dead-letter record). */
export interface WebhookDelivery {
  id: string;
  event_type: string;
  state: "pending" | "retrying" | "delivered" | "dead";
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
}

/** What the create form sends (POST /api/webhooks). */
export interface NewWebhook {
  url: string;
  min_score: number;
  scorers?: string[];
  format: "standard" | "slack";
}

/** Query keys of the page. */
export const webhookKeys = {
  list: (projectId: string) => ["webhooks", projectId] as const,
  deliveries: (projectId: string, endpointId: string) => ["webhooks", projectId, endpointId, "deliveries"] as const,
};

const base = (projectId: string) => `/api/projects/${projectId}/webhooks`;

/** The project's endpoints. */
export const useWebhooks = (projectId: string) =>
  useQuery({ queryKey: webhookKeys.list(projectId), queryFn: () => request<{ items: WebhookEndpoint[] }>(base(projectId)) });

/** Recent deliveries of one endpoint (none while `endpointId` is null); refreshed every 5 s. */
export const useDeliveries = (projectId: string, endpointId: string | null) =>
  useQuery({
    queryKey: webhookKeys.deliveries(projectId, endpointId ?? ""),
    queryFn: () => request<{ items: WebhookDelivery[]; total: number }>(`${base(projectId)}/${endpointId}/deliveries`),
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
