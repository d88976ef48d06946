/**
 * Data of the Policy page (docs/policy.md): the project's policy through the dashboard server's
 * /api/projects/:projectId/policy routes (GET for every member, PUT for admins).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Policy, PolicyInput } from "../../../server/contract";
import { request } from "../../lib/api";

/** Query keys of the feature. */
export const policyKeys = { get: (projectId: string) => ["policy", projectId] as const };

const path = (projectId: string) => `/api/projects/${projectId}/policy`;

/** The project's policy. */
export const usePolicy = (projectId: string) => useQuery({ queryKey: policyKeys.get(projectId), queryFn: () => request<Policy>(path(projectId)) });

/** Replaces the policy; the cache takes the stored answer. */
export function useSavePolicy(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: PolicyInput) => request<Policy>(path(projectId), { method: "PUT", json: p }),
    onSuccess: (saved) => queryClient.setQueryData(policyKeys.get(projectId), saved),
  });
}
