/**
 * Billing: tier, retention (and a running retention grace period after a lapse), requests this
 * period against the limit (warnings at 80% and 100%), the reset date, what happens at the limit; Upgrade opens Stripe Checkout, Manage the billing portal.
 */
import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { PAID_TIERS, type PaidTier, roleAtLeast, TIERS } from "../../../../server/contract";
import { Alert, Button, Card, PageTitle, QueryStatus } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { graceNotice } from "../grace";
import { useBillingRedirects, useSubscription } from "../hooks";

/** How the page names each paid tier and its monthly limit (docs/interface.md section 8; src/billing/tiers.ts). */
const PLAN_WORDS: Record<PaidTier, { name: string; limit: string }> = {
  pro: { name: "Pro", limit: "500,000 requests a month" },
  team: { name: "Team", limit: "5,000,000 requests a month" },
  enterprise: { name: "Enterprise", limit: "unlimited requests" },
};

/** Paid tiers offered for upgrade, cheapest first. */
const PLANS = PAID_TIERS.map((tier) => ({ tier, ...PLAN_WORDS[tier] }));

/** Share of the limit at which the meter warns, and at which calls are refused. */
export const WARN_AT = 0.8;

/** The billing page. */
export function BillingPage() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const returned = params.get("checkout");
  const sub = useSubscription(project.id, returned === "success");
  const { checkout, portal } = useBillingRedirects(project.id);
  const changed = returned === "success" && sub.data !== undefined && sub.data.tier !== "free";
  // Once the new plan shows, the return marker leaves the address: a later visit or a later
  // plan change never shows this checkout's "thank you" again.
  useEffect(() => {
    if (!changed) return;
    const t = setTimeout(() => {
      const next = new URLSearchParams(params);
      next.delete("checkout");
      setParams(next, { replace: true });
    }, 10_000);
    return () => clearTimeout(t);
  }, [changed, params, setParams]);
  const error = checkout.error ?? portal.error;
  const title = <PageTitle subtitle={`Plan and usage of ${project.name}`}>Billing</PageTitle>;
  if (!sub.isSuccess) return <QueryStatus query={sub} title={title} />;
  const s = sub.data;
  const used = s.requests_this_period;
  const share = s.limit ? used / s.limit : 0;
  const reset = new Date(s.period_reset_at).toLocaleDateString(undefined, { year: "numeric", month: "long", day: "numeric" });
  const admin = roleAtLeast(project.role, "admin");
  const grace = graceNotice(s);
  return (
    <>
      {title}
      <div className="flex flex-col gap-6">
        {returned === "success" &&
          (changed ? (
            <Alert tone="success">Thank you: this project is now on the {s.tier.charAt(0).toUpperCase() + s.tier.slice(1)} plan.</Alert>
          ) : (
            <Alert>Thank you. Your plan changes as soon as Stripe confirms the payment.</Alert>
          ))}
        {returned === "cancelled" && <Alert>Checkout was cancelled; nothing was charged.</Alert>}
        <Card
          title="Current plan"
          actions={
            admin && s.payment_customer_id ? (
              <Button variant="secondary" onClick={() => portal.mutate()}>
                Manage billing
              </Button>
            ) : null
          }
        >
          <p className="text-3xl font-semibold capitalize">{s.tier}</p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">Status: {s.status}</p>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            Data retention: {s.retention_days === null ? "kept until deleted" : `calls and their scores are kept ${s.retention_days} days`} (hourly totals stay)
          </p>
          {grace && <Alert tone="warning">{grace} Paying again or upgrading before then loses no call.</Alert>}
        </Card>
        <Card title="Usage this period">
          <p className="mb-2 text-sm" id="usage-label">
            {used.toLocaleString()} of {s.limit === null ? "unlimited" : s.limit.toLocaleString()} requests · resets on {reset}
          </p>
          {s.limit !== null && (
            // biome-ignore lint/a11y/useSemanticElements: a <meter>'s bar cannot be styled alike across browsers; role=meter with aria values says the same
            <div
              role="meter"
              aria-labelledby="usage-label"
              aria-valuemin={0}
              aria-valuemax={s.limit}
              aria-valuenow={Math.min(used, s.limit)}
              className="h-3 w-full overflow-hidden rounded-full bg-zinc-200 dark:bg-zinc-800"
            >
              <div
                className={`h-full ${share >= 1 ? "bg-red-600" : share >= WARN_AT ? "bg-amber-500" : "bg-indigo-600"}`}
                style={{ width: `${Math.min(100, share * 100)}%` }}
              />
            </div>
          )}
          <div className="mt-3">
            {share >= 1 ? (
              <Alert tone="error">
                Limit reached. New calls are not logged until {reset}: Sightline answers 429, and your application keeps working (the proxy and client libraries
                never fail your calls because of it). Upgrade to log them again.
              </Alert>
            ) : share >= WARN_AT ? (
              <Alert tone="warning">
                You have used {Math.floor(share * 100)}% of this period's requests. At the limit, new calls stop being logged until {reset}.
              </Alert>
            ) : (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">
                At the limit, Sightline answers 429 and stops logging until the reset; your application's own calls are never affected.
              </p>
            )}
          </div>
        </Card>
        <Card title="Upgrade">
          {error && <Alert tone="error">{error.message}</Alert>}
          <ul className="grid gap-3 sm:grid-cols-3">
            {PLANS.filter((p) => TIERS.indexOf(p.tier) > TIERS.indexOf(s.tier)).map((p) => (
              <li key={p.tier} className="flex flex-col gap-2 rounded-md border border-zinc-200 p-4 dark:border-zinc-800">
                <span className="font-semibold">{p.name}</span>
                <span className="text-sm">{p.limit}</span>
                {admin && s.tier === "free" ? (
                  <Button onClick={() => checkout.mutate(p.tier)} disabled={checkout.isPending}>
                    Upgrade to {p.name}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
          {!admin && <p className="mt-2 text-sm">Ask an owner or admin to change the plan.</p>}
          {admin && s.tier !== "free" && <p className="mt-2 text-sm">Change plans in Manage billing.</p>}
        </Card>
      </div>
    </>
  );
}
