/** The project's subscription and usage, and the two ways to Stripe: Checkout and the billing portal. */
import { useMutation, useQuery } from "@tanstack/react-query";
import type { RedirectSession, Tier } from "../../../server/contract";
import { api, EMPTY_JSON, routeQuery, unwrap } from "../../lib/api";

const billing = api.projects[":projectId"].billing;

/** The subscription; polls every 2 s while `waitForChange` (a checkout just returned and the tier is still free). */
export function useSubscription(projectId: string, waitForChange: boolean) {
  return useQuery({
    ...routeQuery(billing, { param: { projectId } }),
    // After checkout the webhook applies the tier within seconds: poll until it shows.
    refetchInterval: (q) => (waitForChange && q.state.data?.tier === "free" ? 2000 : false),
  });
}

/** Starts Checkout for a tier, or opens the billing portal; both leave the page for Stripe's. */
export function useBillingRedirects(projectId: string) {
  const go = (s: RedirectSession) => window.location.assign(s.url);
  return {
    checkout: useMutation({
      mutationFn: (tier: Exclude<Tier, "free">) => unwrap(billing.checkout.$post({ param: { projectId }, json: { tier } })),
      onSuccess: go,
    }),
    portal: useMutation({ mutationFn: () => unwrap(billing.portal.$post({ param: { projectId } }, EMPTY_JSON)), onSuccess: go }),
  };
}
