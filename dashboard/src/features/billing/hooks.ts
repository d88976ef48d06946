/** The project's subscription and usage, and the two ways to Stripe: Checkout and the billing portal. */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { RedirectSession, Subscription, Tier } from "../../../server/contract";
import { request } from "../../lib/api";

/** Query keys of the feature. */
export const billingKeys = { subscription: (projectId: string) => ["billing", projectId] as const };

/** The subscription; polls every 2 s while `waitForChange` (a checkout just returned and the tier is still free). */
export function useSubscription(projectId: string, waitForChange: boolean) {
  return useQuery({
    queryKey: billingKeys.subscription(projectId),
    queryFn: () => request<Subscription>(`/api/projects/${projectId}/billing`),
    // After checkout the webhook applies the tier within seconds: poll until it shows.
    refetchInterval: (q) => (waitForChange && q.state.data?.tier === "free" ? 2000 : false),
  });
}

/** Starts Checkout for a tier, or opens the billing portal; both leave the page for Stripe's. */
export function useBillingRedirects(projectId: string) {
  const go = (s: RedirectSession) => window.location.assign(s.url);
  return {
    checkout: useMutation({
      mutationFn: (tier: Tier) => request<RedirectSession>(`/api/projects/${projectId}/billing/checkout`, { json: { tier } }),
      onSuccess: go,
    }),
    portal: useMutation({ mutationFn: () => request<RedirectSession>(`/api/projects/${projectId}/billing/portal`, { json: {} }), onSuccess: go }),
  };
}
