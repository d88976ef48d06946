/**
 * The HTML pages a customer's browser sees at Stripe, in their simplest form: the hosted
 * checkout page (Pay completes the session) and the Billing Portal (switch between the
 * stand-in's prices, cancel, return). Forms post back to the stand-in, which applies the change
 * and sends the signed events Stripe would (./server.ts).
 */
import type Stripe from "stripe";
import type { StoredSession } from "./state.ts";

/** `s` safe inside HTML text and attribute values. */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const dollars = (cents: number | null) => `$${((cents ?? 0) / 100).toFixed(2)}`;
const priceName = (p: Stripe.Price) => p.nickname ?? p.id;

/** The page of `GET /c/pay/:session`. */
export function checkoutPage(id: string, s: StoredSession): string {
  return `<!doctype html><title>Checkout (Stripe stand-in)</title>
<h1>Subscribe: ${escapeHtml(priceName(s.extras.price))}, ${dollars(s.amount_total)} / month</h1>
<p>Session ${escapeHtml(id)} (${escapeHtml(s.status ?? "")}), project ${escapeHtml(s.client_reference_id ?? "-")}.</p>
<form method="post"><button>Pay (test)</button></form>
${s.cancel_url ? `<p><a href="${escapeHtml(s.cancel_url)}">Cancel</a></p>` : ""}`;
}

/** What the portal page shows. */
export interface PortalView {
  session: Stripe.BillingPortal.Session;
  customer: Stripe.Customer | undefined;
  /** The customer's subscriptions that have not ended. */
  subscriptions: Stripe.Subscription[];
  prices: Stripe.Price[];
  /** A line about the change just made, if any. */
  notice?: string | undefined;
}

/** One subscription's block: its plan and status, a button per other price, and Cancel. */
function subscriptionBlock(base: string, sub: Stripe.Subscription, prices: Stripe.Price[]): string {
  const current = sub.items.data[0]!.price;
  const switches = prices
    .filter((p) => p.id !== current.id)
    .map(
      (p) => `<form method="post" action="${base}/update"><input type="hidden" name="subscription" value="${escapeHtml(sub.id)}">
<input type="hidden" name="price" value="${escapeHtml(p.id)}"><button>Switch to ${escapeHtml(priceName(p))} (${dollars(p.unit_amount)} / month)</button></form>`,
    )
    .join("\n");
  return `<section><h2>Current plan: <span data-plan>${escapeHtml(priceName(current))}</span></h2>
<p>Status: ${escapeHtml(sub.status)}, ${dollars(current.unit_amount)} / month (${escapeHtml(sub.id)}).</p>
${switches}
<form method="post" action="${base}/cancel"><input type="hidden" name="subscription" value="${escapeHtml(sub.id)}"><button>Cancel subscription</button></form>
</section>`;
}

/** The page of `GET /p/session/:id`. */
export function portalPage(v: PortalView): string {
  const base = `/p/session/${encodeURIComponent(v.session.id)}`;
  const who = v.customer?.name ?? v.customer?.email ?? v.session.customer;
  const subs = v.subscriptions.length ? v.subscriptions.map((s) => subscriptionBlock(base, s, v.prices)).join("\n") : "<p>No active subscription.</p>";
  return `<!doctype html><title>Billing portal (Stripe stand-in)</title>
<h1>Billing portal: ${escapeHtml(String(who))}</h1>
${v.notice ? `<p role="status">${escapeHtml(v.notice)}</p>` : ""}
${subs}
${v.session.return_url ? `<p><a href="${escapeHtml(v.session.return_url)}">Return to Sightline</a></p>` : ""}`;
}
