/**
 * SQL of billing: the project's billing account for checkout and portal, storing the Stripe
 * customer, the checkout session last opened per price, and the webhook's once-only event record and row updates (run inside one
 * transaction by `processPaymentWebhookEvent`).
 */
import { and, eq, isNull, sql } from "drizzle-orm";
import type { BillingPatch, BillingRow, Outcome } from "../billing/transitions";
import type { Db } from "./driver/client";
import { checkoutSessions, projects, subscriptions, paymentWebhookEvents } from "./schema";

/** A project's name and subscription row, as checkout and portal need them. */
export interface BillingAccount extends BillingRow {
  project_id: string;
  name: string;
}

/**
 * The billing account of a project, or null for an unknown project: the one reader of a
 * project's subscription row (billing routes, checkout, portal, ingest's 429 details).
 */
export async function getBillingAccount(db: Db, projectId: string): Promise<BillingAccount | null> {
  const [row] = await db
    .select({
      project_id: subscriptions.project_id,
      name: projects.name,
      tier: subscriptions.tier,
      status: subscriptions.status,
      payment_customer_id: subscriptions.payment_customer_id,
      payment_subscription_id: subscriptions.payment_subscription_id,
      requests_this_period: subscriptions.requests_this_period,
      period_start_at: subscriptions.period_start_at,
      period_reset_at: subscriptions.period_reset_at,
      last_event_created: subscriptions.last_event_created,
      retention_tier: subscriptions.retention_tier,
      retention_grace_until: subscriptions.retention_grace_until,
    })
    .from(subscriptions)
    .innerJoin(projects, eq(projects.id, subscriptions.project_id))
    .where(eq(subscriptions.project_id, projectId));
  return row ?? null;
}

/**
 * Stores `customerId` as the project's Stripe customer unless one is stored already, and
 * returns the stored one (the first writer wins when two checkouts race).
 */
export async function storeCustomerId(db: Db, projectId: string, customerId: string): Promise<string> {
  const [updated] = await db
    .update(subscriptions)
    .set({ payment_customer_id: customerId, updated_at: sql`now()` })
    .where(and(eq(subscriptions.project_id, projectId), isNull(subscriptions.payment_customer_id)))
    .returning({ id: subscriptions.payment_customer_id });
  if (updated?.id) return updated.id;
  const [row] = await db.select({ id: subscriptions.payment_customer_id }).from(subscriptions).where(eq(subscriptions.project_id, projectId));
  if (!row?.id) throw new Error(`project ${projectId} has no subscription row`);
  return row.id;
}

/**
 * Replaces the project's Stripe customer `missing` (which Stripe no longer knows) by
 * `replacement`, unless another request replaced it already; returns the stored one.
 */
export async function replaceCustomerId(db: Db, projectId: string, missing: string, replacement: string): Promise<string> {
  const [updated] = await db
    .update(subscriptions)
    .set({ payment_customer_id: replacement, updated_at: sql`now()` })
    .where(and(eq(subscriptions.project_id, projectId), eq(subscriptions.payment_customer_id, missing)))
    .returning({ id: subscriptions.payment_customer_id });
  if (updated?.id) return updated.id;
  return storeCustomerId(db, projectId, replacement);
}

/** The id of the Checkout Session last opened for `projectId` and `priceId` (`cs_...`), or null. */
export async function lastCheckoutSession(db: Db, projectId: string, priceId: string): Promise<string | null> {
  const [row] = await db
    .select({ id: checkoutSessions.session_id })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.project_id, projectId), eq(checkoutSessions.price_id, priceId)));
  return row?.id ?? null;
}

/** Records `sessionId` as the Checkout Session last opened for `projectId` and `priceId` (replacing the previous one). */
export async function rememberCheckoutSession(db: Db, projectId: string, priceId: string, sessionId: string): Promise<void> {
  await db
    .insert(checkoutSessions)
    .values({ project_id: projectId, price_id: priceId, session_id: sessionId })
    .onConflictDoUpdate({
      target: [checkoutSessions.project_id, checkoutSessions.price_id],
      set: { session_id: sessionId, created_at: sql`now()` },
    });
}

/** One webhook event as recorded in `webhook_events`. */
export interface EventRecord {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  object_id: string | null;
}

/** True when the event id was processed before. */
export async function isEventRecorded(db: Db, eventId: string): Promise<boolean> {
  const rows = await db.select({ id: paymentWebhookEvents.id }).from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, eventId));
  return rows.length > 0;
}

/**
 * Records the event unless its id is recorded already; false for a duplicate. A concurrent
 * delivery of the same id waits on the primary key until this transaction ends, then finds it.
 */
export async function recordEventOnce(tx: Db, event: EventRecord): Promise<boolean> {
  const inserted = await tx
    .insert(paymentWebhookEvents)
    .values({ ...event, outcome: "ignored" })
    .onConflictDoNothing({ target: paymentWebhookEvents.id })
    .returning({ id: paymentWebhookEvents.id });
  return inserted.length === 1;
}

/** Sets what processing the event did and the project it concerned. */
export async function finishEvent(tx: Db, eventId: string, outcome: Outcome, projectId: string | null): Promise<void> {
  await tx.update(paymentWebhookEvents).set({ outcome, project_id: projectId }).where(eq(paymentWebhookEvents.id, eventId));
}

/** How an event names its project: any of these, tried in this order. */
export interface ProjectMatch {
  subscriptionId?: string | null;
  projectId?: string | null;
  customerId?: string | null;
}

/** The matched project's row, locked until the transaction ends, or null when none matches. */
export async function lockBillingRow(tx: Db, match: ProjectMatch): Promise<(BillingRow & { project_id: string }) | null> {
  const conditions = [
    match.subscriptionId ? eq(subscriptions.payment_subscription_id, match.subscriptionId) : null,
    match.projectId ? eq(subscriptions.project_id, match.projectId) : null,
    match.customerId ? eq(subscriptions.payment_customer_id, match.customerId) : null,
  ];
  for (const condition of conditions) {
    if (!condition) continue;
    const [row] = await tx.select().from(subscriptions).where(condition).for("update");
    if (row) return row;
  }
  return null;
}

/** Writes `patch` to the project's subscription row. */
export async function updateBillingRow(tx: Db, projectId: string, patch: BillingPatch): Promise<void> {
  await tx
    .update(subscriptions)
    .set({ ...patch, updated_at: sql`now()` })
    .where(eq(subscriptions.project_id, projectId));
}
