/**
 * A local stand-in for the parts of the Stripe API that Sightline calls, speaking Stripe's
 * wire format (./wire.ts): form-encoded requests with `Authorization: Bearer sk_test_...`,
 * JSON objects as Stripe returns them (./objects.ts and siblings), the error envelope,
 * and idempotency keys (a repeat replays the first answer; other parameters answer 400).
 * Point the API at it with `STRIPE_API_BASE`. Used by the workerd tests (vitest.config.ts) and
 * by offline development (`npm run stripe:stand-in`). With `stateFile` its objects survive a
 * restart (./state.ts). A Hono app like every other server of the repository, served on Node
 * by `@hono/node-server`: the API's key check, request log and idempotency are one middleware
 * (`stripeApi`), every error one `onError` rendering Stripe's envelope.
 *
 * API: POST /v1/customers, GET /v1/customers/:id, POST /v1/checkout/sessions,
 * GET /v1/checkout/sessions/:id, POST /v1/checkout/sessions/:id/expire,
 * POST /v1/billing_portal/sessions, GET /v1/subscriptions/:id,
 * DELETE /v1/subscriptions/:id (cancel).
 *
 * What a customer's browser would do at Stripe, and test control (JSON, under /__stand-in):
 * - GET /c/pay/:session: a checkout page whose button completes the session;
 * - GET /p/session/:id: the Billing Portal page of a portal session (./pages.ts): switch the
 *   subscription to another price (POST .../update, form `subscription`, `price`: sends
 *   customer.subscription.updated) or cancel it at once (POST .../cancel: sends
 *   customer.subscription.deleted), then back to the page; a link returns to `return_url`;
 * - POST /__stand-in/checkout/sessions/:id/complete: pays the session: creates the
 *   subscription and its paid invoice, answers the three events (checkout.session.completed,
 *   customer.subscription.created, invoice.paid) and delivers them, signed, to the webhook;
 * - POST /__stand-in/subscriptions: creates a subscription `{customer, price, status?, metadata?}`;
 * - POST /__stand-in/subscriptions/:id/update `{price?, status?}`, .../cancel, .../renew (next
 *   period's paid invoice), .../fail-payment: the matching events, delivered;
 * - GET /__stand-in/requests: every API request received (method, path, params, idempotency key).
 */
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import Stripe from "stripe";
import { eventObject, invoiceObject, type EventObjects } from "./events.ts";
import { API_VERSION, customerObject, planOf, plusOneMonth, priceObject, stripeId, subscriptionObject, unixNow } from "./objects.ts";
import { checkoutPage, portalPage } from "./pages.ts";
import { checkoutSessionObject, portalSessionObject } from "./sessions.ts";
import { loadState, saveState } from "./state.ts";
import { metadataOf, missingParam, noSuch, parseForm, str, StripeWireError, type FormValue } from "./wire.ts";

/** A price the stand-in sells. */
export interface StandInPrice {
  id: string;
  /** Monthly amount in cents. */
  unitAmount: number;
  nickname?: string;
}

/** Options of `startStripeStandIn`. */
export interface StandInOptions {
  /** 0 (default): any free port. */
  port?: number;
  host?: string;
  prices: StandInPrice[];
  /** Where to deliver events, signed with `secret` (like `stripe listen --forward-to`). */
  webhook?: { url: string; secret: string };
  log?: (line: string) => void;
  /** Let the process exit while the stand-in listens (tests). */
  unref?: boolean;
  /** JSON file keeping the stand-in's objects across restarts (./state.ts); unset: memory only. */
  stateFile?: string;
}

/** One API request the stand-in received. */
export interface RecordedRequest {
  method: string;
  path: string;
  params: Record<string, FormValue>;
  idempotencyKey: string | null;
  stripeVersion: string | null;
}

/** A running stand-in. */
export interface StripeStandIn {
  /** Base URL, e.g. `http://127.0.0.1:12111`: the value of `STRIPE_API_BASE`. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A delivered event and the webhook's answer. */
interface Delivery {
  event: string;
  type: string;
  status: number | null;
  body: string;
}

/** The Hono environment of the stand-in's app: the Stripe API routes read the decoded form as `params`. */
type StandInEnv = { Variables: { params: Record<string, FormValue> } };

/** Starts the stand-in on 127.0.0.1 and resolves once it listens. */
export async function startStripeStandIn(opts: StandInOptions): Promise<StripeStandIn> {
  const log = opts.log ?? (() => {});
  const prices = new Map(opts.prices.map((p) => [p.id, priceObject(p)]));
  const state = loadState(opts.stateFile);
  const { customers, sessions, portalSessions, subscriptions, replays } = state;
  const requests: RecordedRequest[] = [];
  let base = "";

  const price = (id: string | undefined, param: string) => {
    if (!id) throw missingParam(param);
    const found = prices.get(id);
    if (!found) throw noSuch("price", id, param);
    return found;
  };
  const customer = (id: string | undefined, param?: string) => {
    if (!id) throw missingParam(param ?? "customer");
    const found = customers.get(id);
    if (!found) throw noSuch("customer", id, param);
    return found;
  };
  const subscription = (id: string) => {
    const found = subscriptions.get(id);
    if (!found) throw noSuch("subscription", id);
    return found;
  };

  async function deliver(events: Stripe.Event[]): Promise<Delivery[]> {
    const out: Delivery[] = [];
    if (!opts.webhook) return out;
    for (const event of events) {
      const payload = JSON.stringify(event, null, 2);
      const header = await Stripe.webhooks.generateTestHeaderStringAsync({ payload, secret: opts.webhook.secret });
      try {
        const res = await fetch(opts.webhook.url, {
          method: "POST",
          headers: {
            "content-type": "application/json; charset=utf-8",
            "stripe-signature": header,
            "user-agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
          },
          body: payload,
        });
        out.push({ event: event.id, type: event.type, status: res.status, body: await res.text() });
      } catch (err) {
        out.push({ event: event.id, type: event.type, status: null, body: String(err) });
      }
      log(`▶ stripe stand-in: ${event.type} ${event.id} -> ${out.at(-1)!.status}`);
    }
    return out;
  }

  const event = <K extends keyof EventObjects>(type: K, object: EventObjects[K], previous?: Partial<EventObjects[K]>) =>
    eventObject(type, structuredClone(object), previous ? { previousAttributes: previous } : {});

  function publicSession(id: string): Stripe.Checkout.Session {
    const found = sessions.get(id);
    if (!found) throw noSuch("checkout.session", id);
    const { extras: _extras, ...session } = found;
    return session;
  }

  /**
   * Expires an open session as Stripe does (https://docs.stripe.com/api/checkout/sessions/expire):
   * status `expired`, no URL; it can no longer be paid. A session that is not open: 400.
   */
  function expireSession(id: string): Stripe.Checkout.Session {
    const found = sessions.get(id);
    if (!found) throw noSuch("checkout.session", id);
    if (found.status !== "open") throw new StripeWireError(400, "invalid_request_error", 'Only Checkout Sessions with a status in ["open"] can be expired.');
    Object.assign(found, { status: "expired", url: null });
    return publicSession(id);
  }

  /** Pays a session: subscription + paid invoice, and the three events Stripe sends. */
  function completeSession(id: string) {
    const found = sessions.get(id);
    if (!found) throw noSuch("checkout.session", id);
    if (found.status !== "open") throw new StripeWireError(400, "invalid_request_error", `Checkout session ${id} is ${found.status}.`);
    let cus = typeof found.customer === "string" ? found.customer : null;
    if (!cus) {
      const c = customerObject({ email: "customer@example.com" });
      customers.set(c.id, c);
      cus = c.id;
    }
    const sub = subscriptionObject({ customer: cus, price: found.extras.price, metadata: found.extras.subscriptionMetadata });
    const invoice = invoiceObject({ customer: cus, subscription: sub, billingReason: "subscription_create" });
    sub.latest_invoice = invoice.id;
    subscriptions.set(sub.id, sub);
    Object.assign(found, { status: "complete", payment_status: "paid", customer: cus, subscription: sub.id, invoice: invoice.id, url: null });
    const session = publicSession(id);
    return {
      session,
      subscription: sub,
      invoice,
      events: [event("checkout.session.completed", session), event("customer.subscription.created", sub), event("invoice.paid", invoice)],
    };
  }

  /** Control actions on a subscription; each answers the new state and the events it caused. */
  function subscriptionAction(id: string, action: string, params: Record<string, unknown>) {
    const sub = subscription(id);
    const before = structuredClone(sub);
    if (action === "cancel") {
      Object.assign(sub, { status: "canceled", canceled_at: unixNow(), ended_at: unixNow() });
      sub.cancellation_details = { comment: null, feedback: null, feedback_option: null, reason: "cancellation_requested" };
      return { subscription: sub, events: [event("customer.subscription.deleted", sub)] };
    }
    if (action === "update") {
      if (typeof params.price === "string") {
        const p = price(params.price, "items[0][price]");
        Object.assign(sub.items.data[0]!, { price: p, plan: planOf(p) });
      }
      if (typeof params.status === "string") sub.status = params.status as Stripe.Subscription.Status;
      return { subscription: sub, events: [event("customer.subscription.updated", sub, { items: before.items, status: before.status })] };
    }
    if (action === "renew" || action === "fail-payment") {
      const item = sub.items.data[0]!;
      const start = item.current_period_end;
      const invoice = invoiceObject({
        customer: String(sub.customer),
        subscription: sub,
        billingReason: "subscription_cycle",
        periodStart: start,
        periodEnd: plusOneMonth(start),
        status: action === "renew" ? "paid" : "open",
      });
      if (action === "fail-payment") {
        sub.status = "past_due";
        return {
          subscription: sub,
          invoice,
          events: [event("invoice.payment_failed", invoice), event("customer.subscription.updated", sub, { status: before.status })],
        };
      }
      Object.assign(item, { current_period_start: start, current_period_end: plusOneMonth(start) });
      Object.assign(sub, { status: "active", latest_invoice: invoice.id });
      return { subscription: sub, invoice, events: [event("customer.subscription.updated", sub, { items: before.items }), event("invoice.paid", invoice)] };
    }
    throw new StripeWireError(404, "invalid_request_error", `Unknown stand-in action ${action}.`);
  }

  /** The Billing Portal: GET shows the page; POST .../update|cancel changes a subscription of the session's customer. */
  async function portal(c: Context<StandInEnv>): Promise<Response> {
    const id = c.req.param("id")!;
    const action = c.req.param("action");
    const session = portalSessions.get(id);
    if (!session) return c.html("<!doctype html><title>Not found</title><p>No such billing portal session.</p>", 404);
    const page = `/p/session/${encodeURIComponent(id)}`;
    if (c.req.method === "POST" && (action === "update" || action === "cancel")) {
      const form = new URLSearchParams(await c.req.text());
      const sub = subscription(form.get("subscription") ?? "");
      if (sub.customer !== session.customer) throw noSuch("subscription", sub.id);
      const done = subscriptionAction(sub.id, action, action === "update" ? { price: form.get("price") ?? "" } : {});
      await deliver(done.events);
      const plan = done.subscription.items.data[0]!.price;
      const what = action === "update" ? `Your plan is now ${plan.nickname ?? plan.id}.` : "Your subscription is canceled.";
      return c.redirect(`${page}?notice=${encodeURIComponent(what)}`, 303);
    }
    if (c.req.method !== "GET" || action)
      throw new StripeWireError(404, "invalid_request_error", `Unknown portal action ${c.req.method} ${page}/${action ?? ""}.`);
    const live = [...subscriptions.values()].filter((s) => s.customer === session.customer && s.status !== "canceled" && s.status !== "incomplete_expired");
    const notice = c.req.query("notice");
    return c.html(portalPage({ session, customer: customers.get(String(session.customer)), subscriptions: live, prices: [...prices.values()], notice }));
  }

  /** The Stripe API's answer: the object as JSON with Stripe's response headers. */
  const answer = (c: Context<StandInEnv>, body: unknown, status: ContentfulStatusCode = 200, headers: Record<string, string> = {}) =>
    c.json(body, status, { "request-id": stripeId("req"), "stripe-version": API_VERSION, ...headers });

  /**
   * The Stripe API's door: a `Bearer sk_test_...` key, the request recorded with its decoded form
   * (`params`), and idempotency for POST: a repeated key replays the first 200 answer, and the
   * same key with other parameters is refused (400 `idempotency_error`).
   */
  const stripeApi = createMiddleware<StandInEnv>(async (c, next) => {
    if (!/^Bearer\s+sk_test_\S+$/.test(c.req.header("authorization") ?? ""))
      throw new StripeWireError(401, "invalid_request_error", "You did not provide a valid test API key (Authorization: Bearer sk_test_...).");
    const raw = await c.req.text();
    const url = new URL(c.req.url);
    const params = parseForm(c.req.method === "GET" || c.req.method === "DELETE" ? url.search.slice(1) : raw);
    const idempotencyKey = c.req.header("idempotency-key") ?? null;
    requests.push({ method: c.req.method, path: url.pathname, params, idempotencyKey, stripeVersion: c.req.header("stripe-version") ?? null });
    c.set("params", params);
    if (!idempotencyKey || c.req.method !== "POST") return next();
    const fingerprint = `${c.req.method} ${url.pathname} ${raw}`;
    const replay = replays.get(idempotencyKey);
    if (replay && replay.fingerprint !== fingerprint)
      throw new StripeWireError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
      );
    if (replay) return answer(c, replay.body, replay.status as ContentfulStatusCode, { "idempotent-replayed": "true", "idempotency-key": idempotencyKey });
    await next();
    c.res.headers.set("idempotency-key", idempotencyKey);
    if (c.res.status === 200) replays.set(idempotencyKey, { fingerprint, status: 200, body: await c.res.clone().json() });
  });

  /** POST /v1/checkout/sessions: a subscription-mode session for one price. */
  function createCheckoutSession(params: Record<string, FormValue>): Stripe.Checkout.Session {
    if (str(params, "mode") !== "subscription")
      throw new StripeWireError(400, "invalid_request_error", "The stand-in supports mode=subscription only.", "parameter_invalid_string", "mode");
    const successUrl = str(params, "success_url");
    if (!successUrl) throw missingParam("success_url");
    const p = price(str(params, "line_items", 0, "price"), "line_items[0][price]");
    const cus = str(params, "customer");
    if (cus) customer(cus, "customer");
    const session = checkoutSessionObject({
      pageBase: base,
      customer: cus ?? null,
      clientReferenceId: str(params, "client_reference_id") ?? null,
      successUrl,
      cancelUrl: str(params, "cancel_url") ?? null,
      metadata: metadataOf(params.metadata),
      amountTotal: p.unit_amount ?? 0,
      currency: p.currency,
    });
    const subData = params.subscription_data;
    const extras = { price: p, subscriptionMetadata: metadataOf(typeof subData === "object" && !Array.isArray(subData) ? subData.metadata : undefined) };
    sessions.set(session.id, Object.assign(session, { extras }));
    return publicSession(session.id);
  }

  /** The test-control body: JSON, or none. */
  const controlBody = async (c: Context<StandInEnv>) => {
    const raw = await c.req.text();
    return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  };

  const app = new Hono<StandInEnv>()
    // Anything but a read may have changed an object: keep the file current.
    .use(async (c, next) => {
      await next();
      if (c.req.method === "GET") return;
      try {
        saveState(opts.stateFile, state);
      } catch (err) {
        log(`▶ stripe stand-in: could not write ${opts.stateFile}: ${err}`);
      }
    })
    // What a customer's browser does at Stripe: the checkout page, and the Billing Portal.
    .get("/c/pay/:session", (c) => {
      const s = sessions.get(c.req.param("session"));
      return s ? c.html(checkoutPage(c.req.param("session"), s)) : c.html("<!doctype html><title>Not found</title><p>No such checkout session.</p>", 404);
    })
    .post("/c/pay/:session", async (c) => {
      const done = completeSession(c.req.param("session"));
      await deliver(done.events);
      return c.redirect((done.session.success_url ?? base).replace("{CHECKOUT_SESSION_ID}", done.session.id), 303);
    })
    .on(["GET", "POST"], "/p/session/:id/:action?", portal)
    // Test control.
    .get("/__stand-in/requests", (c) => c.json(requests))
    .post("/__stand-in/checkout/sessions/:id/complete", async (c) => {
      const done = completeSession(c.req.param("id"));
      return c.json({ ...done, deliveries: await deliver(done.events) });
    })
    .post("/__stand-in/subscriptions", async (c) => {
      const body = await controlBody(c);
      const sub = subscriptionObject({
        customer: customer(String(body.customer ?? ""), "customer").id,
        price: price(String(body.price ?? ""), "price"),
        status: (body.status as Stripe.Subscription.Status | undefined) ?? "active",
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      });
      subscriptions.set(sub.id, sub);
      return c.json(sub);
    })
    .post("/__stand-in/subscriptions/:id/:action", async (c) => {
      const done = subscriptionAction(c.req.param("id"), c.req.param("action"), await controlBody(c));
      return c.json({ ...done, deliveries: await deliver(done.events) });
    })
    .all("/__stand-in/*", (c) => {
      throw new StripeWireError(404, "invalid_request_error", `Unknown stand-in control route ${c.req.method} ${c.req.path}.`);
    })
    // The Stripe API.
    .use(stripeApi)
    .post("/v1/customers", (c) => {
      const params = c.var.params;
      const created = customerObject({ name: str(params, "name") ?? null, email: str(params, "email") ?? null, metadata: metadataOf(params.metadata) });
      customers.set(created.id, created);
      return answer(c, created);
    })
    .get("/v1/customers/:id", (c) => answer(c, customer(c.req.param("id"))))
    .post("/v1/checkout/sessions", (c) => answer(c, createCheckoutSession(c.var.params)))
    .get("/v1/checkout/sessions/:id", (c) => answer(c, publicSession(c.req.param("id"))))
    .post("/v1/checkout/sessions/:id/expire", (c) => answer(c, expireSession(c.req.param("id"))))
    .post("/v1/billing_portal/sessions", (c) => {
      const cus = customer(str(c.var.params, "customer"), "customer");
      const session = portalSessionObject({ pageBase: base, customer: cus.id, returnUrl: str(c.var.params, "return_url") ?? null });
      portalSessions.set(session.id, session);
      return answer(c, session);
    })
    .get("/v1/subscriptions/:id", (c) => answer(c, subscription(c.req.param("id"))))
    .delete("/v1/subscriptions/:id", async (c) => {
      const done = subscriptionAction(c.req.param("id"), "cancel", {});
      await deliver(done.events);
      return answer(c, done.subscription);
    })
    .notFound((c) => answer(c, new StripeWireError(404, "invalid_request_error", `Unrecognized request URL (${c.req.method}: ${c.req.path}).`).toJSON(), 404))
    .onError((err, c) => {
      const wire = err instanceof StripeWireError ? err : new StripeWireError(500, "api_error", String(err));
      return answer(c, wire.toJSON(), wire.status as ContentfulStatusCode);
    });

  const host = opts.host ?? "127.0.0.1";
  const server = await new Promise<ServerType>((resolve) => {
    const started: ServerType = serve({ fetch: app.fetch, port: opts.port ?? 0, hostname: host }, () => resolve(started));
  });
  if (opts.unref) server.unref();
  base = `http://${host}:${(server.address() as AddressInfo).port}`;
  return { url: base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
