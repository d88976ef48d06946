/**
 * Processes one verified payment event exactly once: the event id is recorded and its effect
 * applied in one database transaction, so a failure leaves neither (Stripe redelivers on a
 * non-2xx answer) and a redelivered id does nothing. Stripe delivers at least once and in no
 * guaranteed order: https://docs.stripe.com/webhooks#handle-duplicate-events.
 *
 * Effects per event type (decisions in ./transitions.ts):
 * - `checkout.session.completed`: links customer and subscription to the project named by
 *   `client_reference_id`, then applies the subscription's current state read from Stripe
 *   (`subscriptions.retrieve`), so the upgrade does not depend on the order of the events.
 * - `customer.subscription.created|updated|deleted`: tier from the price, status, link.
 * - `invoice.paid`: a new period; `invoice.payment_failed`: recorded only.
 * - any other type: acknowledged, not recorded.
 */
import type Stripe from "stripe";
import type { Db } from "../db/driver/client";
import { ApiError } from "../http/errors";
import { finishEvent, isEventRecorded, lockBillingRow, recordEventOnce, updateBillingRow, type ProjectMatch } from "../db/billing";
import { effectOf, objectIdOf, subscriptionState, type BillingEffect, type SubscriptionState } from "./effects";
import type { PriceTable } from "./prices";
import { isResourceMissing, providerError } from "./stripe";
import { decideCheckout, decideInvoicePaid, decideSubscription, patched, type BillingRow, type Decision, type Outcome } from "./transitions";

/** What the webhook did with an event: an `Outcome`, `duplicate`, or `ignored` for an unhandled type. */
export type PaymentWebhookResult = { outcome: Outcome | "duplicate"; projectId: string | null };

/** What processing needs besides the database. */
export interface PaymentWebhookDeps {
  prices: PriceTable;
  /** Reads a subscription back from Stripe; null when billing has no API key configured. */
  stripe: Stripe | null;
}

function matchOf(effect: BillingEffect): ProjectMatch {
  switch (effect.kind) {
    case "checkout_completed":
      return { projectId: effect.projectId };
    case "subscription_state":
      return { subscriptionId: effect.subscriptionId, projectId: effect.projectId, customerId: effect.customerId };
    default:
      return { subscriptionId: effect.subscriptionId, customerId: effect.customerId };
  }
}

/** The current state of a subscription at Stripe, or null when Stripe does not know it. */
async function currentSubscription(deps: PaymentWebhookDeps, subscriptionId: string | null): Promise<SubscriptionState | null> {
  if (!deps.stripe || !subscriptionId) return null;
  try {
    return subscriptionState(await deps.stripe.subscriptions.retrieve(subscriptionId), deps.prices);
  } catch (err) {
    if (isResourceMissing(err)) return null;
    throw providerError(err);
  }
}

/** The decisions of one effect on `row`, chained (checkout: link, then the current state). */
function decide(row: BillingRow, effect: BillingEffect, created: number, current: SubscriptionState | null): Decision[] {
  switch (effect.kind) {
    case "checkout_completed": {
      const link = decideCheckout(row, effect, created);
      if (link.outcome !== "applied" || !current) return [link];
      return [link, decideSubscription(patched(row, link.patch), current, created, true)];
    }
    case "subscription_state":
      return [decideSubscription(row, effect, created)];
    case "invoice_paid":
      return [decideInvoicePaid(row, effect, created)];
    case "invoice_payment_failed":
      return [{ outcome: "recorded" }];
  }
}

/**
 * `effectOf` for a verified event whose object may still not have its type's shape (Stripe
 * never sends one, but a signed payload is only as good as its signer): reading a missing
 * field answers 400, not 500.
 */
function effectOfSigned(event: Stripe.Event, prices: PriceTable): BillingEffect | null {
  try {
    return effectOf(event, prices);
  } catch (err) {
    if (err instanceof TypeError) throw new ApiError(400, `event ${event.type}: data.object does not have the shape of a ${event.type} object`);
    throw err;
  }
}

/**
 * Processes `event` (already verified) once. Throws on database failure or when Stripe cannot
 * be reached for the checkout's subscription (an `ApiError` 503): nothing is recorded then,
 * and Stripe's retry processes the event later.
 */
export async function processPaymentWebhookEvent(db: Db, event: Stripe.Event, deps: PaymentWebhookDeps): Promise<PaymentWebhookResult> {
  const effect = effectOfSigned(event, deps.prices);
  if (!effect) return { outcome: "ignored", projectId: null };
  if (await isEventRecorded(db, event.id)) return { outcome: "duplicate", projectId: null };
  // Outside the transaction: no row lock is held while Stripe answers.
  const current = effect.kind === "checkout_completed" ? await currentSubscription(deps, effect.subscriptionId) : null;

  return db.transaction(async (tx) => {
    const record = { id: event.id, type: event.type, created: event.created, object_id: objectIdOf(event) };
    if (!(await recordEventOnce(tx as Db, record))) return { outcome: "duplicate", projectId: null };
    const row = await lockBillingRow(tx as Db, matchOf(effect));
    if (!row) {
      await finishEvent(tx as Db, event.id, "unmatched", null);
      return { outcome: "unmatched", projectId: null };
    }
    const decisions = decide(row, effect, event.created, current);
    const patch = Object.assign({}, ...decisions.map((d) => d.patch ?? {}));
    if (Object.keys(patch).length > 0) await updateBillingRow(tx as Db, row.project_id, patch);
    const outcome = decisions.some((d) => d.outcome === "applied") ? "applied" : decisions[0]!.outcome;
    await finishEvent(tx as Db, event.id, outcome, row.project_id);
    return { outcome, projectId: row.project_id };
  });
}
