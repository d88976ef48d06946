/**
 * Data of the Policy page (docs/policy.md): the project's policy through the dashboard server's
 * /api/projects/:projectId/policy routes (GET for every member, PUT for admins), the calibration
 * counts over reviewed calls (`/calibration`) and re-scoring jobs (`/rescore`, admins start one;
 * its progress is polled every second while it runs).
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PolicyInput } from "../../../server/contract";
import { api, pathKey, routeQuery, unwrap } from "../../lib/api";
import { requestKeys } from "../requests/hooks";

const policy = api.projects[":projectId"].policy;
const rescoreJob = policy.rescore[":jobId"];

/** Query keys of the feature (the routes' paths). */
export const policyKeys = {
  get: (projectId: string) => pathKey(policy.$path({ param: { projectId } })),
  calibration: (projectId: string) => pathKey(policy.calibration.$path({ param: { projectId } })),
  rescore: (projectId: string, jobId: string) => pathKey(rescoreJob.$path({ param: { projectId, jobId } })),
};

/** How often a running re-score's progress is asked (ms). */
const RESCORE_POLL_MS = 1000;

/** The project's policy. */
export const usePolicy = (projectId: string) => useQuery(routeQuery(policy, { param: { projectId } }));

/** Replaces the policy; the cache takes the stored answer. */
export function useSavePolicy(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: PolicyInput) => unwrap(policy.$put({ param: { projectId }, json: p })),
    onSuccess: (saved) => queryClient.setQueryData(policyKeys.get(projectId), saved),
  });
}

/** Per scorer and unsafe_at, the reviewed calls each threshold would catch and falsely flag. */
export const useCalibration = (projectId: string) => useQuery(routeQuery(policy.calibration, { param: { projectId } }));

/** Starts a re-score of the calls created in [since, until) (at most 90 days). */
export function useStartRescore(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (range: { since: string; until: string }) => unwrap(policy.rescore.$post({ param: { projectId }, json: range })),
    onSuccess: (job) => queryClient.setQueryData(policyKeys.rescore(projectId, job.id), job),
  });
}

/**
 * A re-scoring job, asked again every second while it runs; when it is done, the calibration
 * and every view of the project's requests (scores, reviews, counts) are read again.
 */
export function useRescoreJob(projectId: string, jobId: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: policyKeys.rescore(projectId, jobId ?? ""),
    enabled: jobId !== null,
    queryFn: async () => {
      const job = await unwrap(rescoreJob.$get({ param: { projectId, jobId: jobId ?? "" } }));
      if (job.state === "done") {
        void queryClient.invalidateQueries({ queryKey: policyKeys.calibration(projectId) });
        void queryClient.invalidateQueries({ queryKey: requestKeys.all(projectId) });
      }
      return job;
    },
    refetchInterval: (q) => (q.state.data?.state === "done" ? false : RESCORE_POLL_MS),
  });
}
