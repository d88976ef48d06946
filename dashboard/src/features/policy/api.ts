/**
 * Data of the Policy page (docs/policy.md): the project's policy through the dashboard server's
 * /api/projects/:projectId/policy routes (GET for every member, PUT for admins).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { request } from "../../lib/api";

/** One scorer's settings. */
export interface ScorerPolicy {
  enabled: boolean;
  unsafe_at: 3 | 4 | 5;
  /** pii_detection only. */
  allow?: string[];
}

/** The policy as the API answers it (every scorer listed). */
export interface Policy {
  scorers: Record<string, ScorerPolicy>;
  store_pii: "keep" | "mask";
  version: number;
  updated_at: string | null;
}

/** What PUT sends. */
export type PolicyInput = Pick<Policy, "scorers" | "store_pii">;

/** Query key of the page. */
export const policyKey = (projectId: string) => ["policy", projectId] as const;

const path = (projectId: string) => `/api/projects/${projectId}/policy`;

/** The project's policy. */
export const usePolicy = (projectId: string) => useQuery({ queryKey: policyKey(projectId), queryFn: () => request<Policy>(path(projectId)) });

/** Replaces the policy; the cache takes the stored answer. */
export function useSavePolicy(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: PolicyInput) => request<Policy>(path(projectId), { method: "PUT", json: p }),
    onSuccess: (saved) => queryClient.setQueryData(policyKey(projectId), saved),
  });
}
