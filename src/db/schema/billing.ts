/**
 * Subscriptions and the payment provider's processed webhook events. Part of the PostgreSQL schema (drizzle-orm, src/db/schema/index.ts);
 * migrations/ is generated from it by `npm run db:generate`.
 */
import { bigint, index, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { PAYMENT_WEBHOOK_OUTCOMES, TIERS } from "../../enums";
import { timestamptz, timestamptzNow } from "./columns";
import { projectId, projects, projectKey } from "./projects";

/**
 * One subscription per project (docs/interface.md section 2.5, `subscriptions`), created as `free` with the
 * project. Maintained by the payment webhook; `requests_this_period` is counted by ingest.
 */
export const subscriptions = pgTable(
  "subscriptions",
  {
    project_id: projectKey(),
    tier: text("tier", { enum: TIERS }).notNull().default("free"),
    /** Provider subscription status (`active`, `past_due`, `canceled`...); `active` for free. */
    status: text("status").notNull().default("active"),
    payment_customer_id: text("payment_customer_id"),
    payment_subscription_id: text("payment_subscription_id"),
    requests_this_period: bigint("requests_this_period", { mode: "number" }).notNull().default(0),
    /** Start of the current period (UTC). */
    period_start_at: timestamptz("period_start_at").notNull(),
    /** When the counter resets: next calendar month (UTC) for free, Stripe's period end for paid. */
    period_reset_at: timestamptz("period_reset_at").notNull(),
    /** Creation time (Unix seconds) of the newest provider event applied: older events are ignored. */
    last_event_created: bigint("last_event_created", { mode: "number" }),
    /**
     * During a retention grace period (src/billing/grace.ts, docs/retention.md): the highest tier
     * the project held before its tier dropped, whose retention the sweep keeps applying until
     * `retention_grace_until`. Null: no grace period.
     */
    retention_tier: text("retention_tier", { enum: TIERS }),
    /** End of the retention grace period (UTC), 30 days after the drop; null: none. */
    retention_grace_until: timestamptz("retention_grace_until"),
    updated_at: timestamptzNow("updated_at"),
  },
  // Webhooks find the project by the provider's ids; each customer and subscription belongs
  // to one project (NULLs do not collide).
  (t) => [
    uniqueIndex("subscriptions_payment_customer_idx").on(t.payment_customer_id),
    uniqueIndex("subscriptions_payment_subscription_idx").on(t.payment_subscription_id),
  ],
);

/**
 * Payment provider events already processed, one row per event id, so a redelivered event is
 * recognised and does nothing (Stripe delivers at least once). The row is written in the same
 * transaction as the event's effect on `subscriptions`.
 */
export const paymentWebhookEvents = pgTable(
  "webhook_events",
  {
    /** The provider's event id (Stripe `evt_...`). */
    id: text("id").primaryKey(),
    /** Event type, e.g. `customer.subscription.updated`. */
    type: text("type").notNull(),
    /** When the provider created the event, Unix seconds. */
    created: bigint("created", { mode: "number" }).notNull(),
    /** Id of the event's object at the provider (`cs_...`, `sub_...`, `in_...`). */
    object_id: text("object_id"),
    /** The project the event was matched to, if any. */
    project_id: uuid("project_id").references(() => projects.id, { onDelete: "set null" }),
    outcome: text("outcome", { enum: PAYMENT_WEBHOOK_OUTCOMES }).notNull(),
    received_at: timestamptzNow("received_at"),
  },
  (t) => [index("webhook_events_project_received_idx").on(t.project_id, t.received_at.desc())],
);

/**
 * The Stripe Checkout Session last opened per project and price (src/billing/checkout.ts):
 * handed back while Stripe reports it `open`, replaced by a new one once it is complete or
 * expired, so a project has at most one open session per price.
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    project_id: projectId(),
    /** Stripe price id (`price_...`) the session subscribes to. */
    price_id: text("price_id").notNull(),
    /** Stripe Checkout Session id (`cs_...`). */
    session_id: text("session_id").notNull(),
    created_at: timestamptzNow("created_at"),
  },
  (t) => [primaryKey({ name: "checkout_sessions_pkey", columns: [t.project_id, t.price_id] })],
);
