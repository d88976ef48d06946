/**
 * A local stand-in for the parts of the Stripe API that Sightline calls, speaking Stripe's
 * wire format (./wire.ts): form-encoded requests with `Authorization: Bearer sk_test_...`,
 * JSON objects as Stripe returns them (./objects.ts and siblings), the error envelope,
 * and idempotency keys (a repeat replays the first answer; other parameters answer 400).
 * Point the API at it with `STRIPE_API_BASE`. Used by the workerd tests (vitest.config.ts) and
 * by offline development (`npm run stripe:stand-in`). With `stateFile` its objects survive a
 * restart (./state.ts).
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
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
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

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", "request-id": stripeId("req"), "stripe-version": API_VERSION, ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString("utf8");
}

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

  /** API routes: the object to answer with (status 200), or a StripeWireError. */
  function api(method: string, path: string, params: Record<string, FormValue>): unknown {
    const [, , resource, id, sub] = path.split("/"); // "", "v1", resource, id?, sub?
    if (method === "POST" && path === "/v1/customers") {
      const c = customerObject({ name: str(params, "name") ?? null, email: str(params, "email") ?? null, metadata: metadataOf(params.metadata) });
      customers.set(c.id, c);
      return c;
    }
    if (method === "GET" && resource === "customers" && id) return customer(id);
    if (method === "POST" && path === "/v1/checkout/sessions") {
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
    if (method === "GET" && resource === "checkout" && id === "sessions" && sub) return publicSession(sub);
    if (method === "POST" && resource === "checkout" && id === "sessions" && sub && path.endsWith(`/${sub}/expire`)) return expireSession(sub);
    if (method === "POST" && path === "/v1/billing_portal/sessions") {
      const c = customer(str(params, "customer"), "customer");
      const session = portalSessionObject({ pageBase: base, customer: c.id, returnUrl: str(params, "return_url") ?? null });
      portalSessions.set(session.id, session);
      return session;
    }
    if (method === "GET" && resource === "subscriptions" && id) return subscription(id);
    throw new StripeWireError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

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

  async function control(method: string, path: string, body: Record<string, unknown>): Promise<unknown> {
    const parts = path.split("/").slice(2); // after "/__stand-in"
    if (method === "GET" && parts[0] === "requests") return requests;
    if (method === "POST" && parts[0] === "checkout" && parts[3] === "complete") {
      const done = completeSession(parts[2]!);
      return { ...done, deliveries: await deliver(done.events) };
    }
    if (method === "POST" && parts[0] === "subscriptions" && parts.length === 1) {
      const c = customer(String(body.customer ?? ""), "customer");
      const sub = subscriptionObject({
        customer: c.id,
        price: price(String(body.price ?? ""), "price"),
        status: (body.status as Stripe.Subscription.Status | undefined) ?? "active",
        metadata: (body.metadata as Record<string, string> | undefined) ?? {},
      });
      subscriptions.set(sub.id, sub);
      return sub;
    }
    if (method === "POST" && parts[0] === "subscriptions" && parts[2]) {
      const done = subscriptionAction(parts[1]!, parts[2], body);
      return { ...done, deliveries: await deliver(done.events) };
    }
    throw new StripeWireError(404, "invalid_request_error", `Unknown stand-in control route ${method} ${path}.`);
  }

  const html = (res: ServerResponse, status: number, body: string) => void res.writeHead(status, { "content-type": "text/html; charset=utf-8" }).end(body);

  /** The Billing Portal: GET shows the page; POST .../update|cancel changes a subscription of the session's customer. */
  async function portal(res: ServerResponse, method: string, id: string, action: string | undefined, raw: string, notice?: string): Promise<void> {
    const session = portalSessions.get(id);
    if (!session) return html(res, 404, "<!doctype html><title>Not found</title><p>No such billing portal session.</p>");
    const page = `/p/session/${encodeURIComponent(id)}`;
    if (method === "POST" && (action === "update" || action === "cancel")) {
      const form = new URLSearchParams(raw);
      const sub = subscription(form.get("subscription") ?? "");
      if (sub.customer !== session.customer) throw noSuch("subscription", sub.id);
      const done = subscriptionAction(sub.id, action, action === "update" ? { price: form.get("price") ?? "" } : {});
      await deliver(done.events);
      const plan = done.subscription.items.data[0]!.price;
      const what = action === "update" ? `Your plan is now ${plan.nickname ?? plan.id}.` : "Your subscription is canceled.";
      return void res.writeHead(303, { location: `${page}?notice=${encodeURIComponent(what)}` }).end();
    }
    if (method !== "GET" || action) throw new StripeWireError(404, "invalid_request_error", `Unknown portal action ${method} ${page}/${action ?? ""}.`);
    const live = [...subscriptions.values()].filter((s) => s.customer === session.customer && s.status !== "canceled" && s.status !== "incomplete_expired");
    html(res, 200, portalPage({ session, customer: customers.get(String(session.customer)), subscriptions: live, prices: [...prices.values()], notice }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://stand-in");
    const method = req.method ?? "GET";
    const raw = await readBody(req);
    const portalPath = /^\/p\/session\/([^/]+)(?:\/([^/]+))?$/.exec(url.pathname);
    if (portalPath) return portal(res, method, decodeURIComponent(portalPath[1]!), portalPath[2], raw, url.searchParams.get("notice") ?? undefined);
    const page = /^\/c\/pay\/([^/]+)$/.exec(url.pathname);
    if (page && method === "GET") {
      const s = sessions.get(page[1]!);
      return s ? html(res, 200, checkoutPage(page[1]!, s)) : html(res, 404, "<!doctype html><title>Not found</title><p>No such checkout session.</p>");
    }
    if (page && method === "POST") {
      const done = completeSession(page[1]!);
      await deliver(done.events);
      const next = (done.session.success_url ?? base).replace("{CHECKOUT_SESSION_ID}", done.session.id);
      return void res.writeHead(303, { location: next }).end();
    }
    if (url.pathname.startsWith("/__stand-in/"))
      return json(res, 200, await control(method, url.pathname, raw ? (JSON.parse(raw) as Record<string, unknown>) : {}));

    const auth = /^Bearer\s+(sk_test_\S+)$/.exec(req.headers.authorization ?? "");
    if (!auth) throw new StripeWireError(401, "invalid_request_error", "You did not provide a valid test API key (Authorization: Bearer sk_test_...).");
    const params = parseForm(method === "GET" || method === "DELETE" ? url.search.slice(1) : raw);
    const idempotencyKey = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ method, path: url.pathname, params, idempotencyKey, stripeVersion: (req.headers["stripe-version"] as string | undefined) ?? null });
    if (method === "DELETE" && /^\/v1\/subscriptions\/[^/]+$/.test(url.pathname)) {
      const done = subscriptionAction(url.pathname.split("/")[3]!, "cancel", {});
      await deliver(done.events);
      return json(res, 200, done.subscription);
    }
    const fingerprint = `${method} ${url.pathname} ${raw}`;
    const replay = idempotencyKey && method === "POST" ? replays.get(idempotencyKey) : undefined;
    if (replay && replay.fingerprint !== fingerprint)
      throw new StripeWireError(
        400,
        "idempotency_error",
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
      );
    if (replay) return json(res, replay.status, replay.body, { "idempotent-replayed": "true", "idempotency-key": idempotencyKey! });
    const body = api(method, url.pathname, params);
    if (idempotencyKey && method === "POST") replays.set(idempotencyKey, { fingerprint, status: 200, body });
    json(res, 200, body, idempotencyKey ? { "idempotency-key": idempotencyKey } : {});
  }

  const server = createServer((req, res) => {
    handle(req, res)
      .catch((err) => {
        const wire = err instanceof StripeWireError ? err : new StripeWireError(500, "api_error", String(err));
        if (!res.headersSent) json(res, wire.status, wire.toJSON());
        else res.end();
      })
      // Anything but a read may have changed an object: keep the file current.
      .finally(() => {
        if (req.method === "GET") return;
        try {
          saveState(opts.stateFile, state);
        } catch (err) {
          log(`▶ stripe stand-in: could not write ${opts.stateFile}: ${err}`);
        }
      });
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", resolve));
  if (opts.unref) server.unref();
  const address = server.address() as AddressInfo;
  base = `http://${opts.host ?? "127.0.0.1"}:${address.port}`;
  return { url: base, requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
