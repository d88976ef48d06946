/**
 * The stand-in's objects and their persistence: customers, checkout and portal sessions,
 * subscriptions and idempotent replies, kept in memory and, when a state file is given,
 * written to it after every change (JSON, replaced atomically by rename) and read back on start,
 * so a restarted stand-in still knows every customer the API stored (as Stripe does).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type Stripe from "stripe";

/** What a checkout session needs beyond Stripe's object: the price bought and the subscription's metadata. */
export interface SessionExtras {
  price: Stripe.Price;
  subscriptionMetadata: Record<string, string>;
}

/** A Checkout Session with the stand-in's extras. */
export type StoredSession = Stripe.Checkout.Session & { extras: SessionExtras };

/** The first answer to an idempotency key, and what it was asked with. */
export interface Replay {
  fingerprint: string;
  status: number;
  body: unknown;
}

/** Every object the stand-in keeps, by id. */
export interface StandInState {
  customers: Map<string, Stripe.Customer>;
  sessions: Map<string, StoredSession>;
  portalSessions: Map<string, Stripe.BillingPortal.Session>;
  subscriptions: Map<string, Stripe.Subscription>;
  replays: Map<string, Replay>;
}

/** Layout version of the state file; a file of another version is ignored (start empty). */
const STATE_VERSION = 1;

const KEYS = ["customers", "sessions", "portalSessions", "subscriptions", "replays"] as const;

/** An empty state. */
export function emptyState(): StandInState {
  return { customers: new Map(), sessions: new Map(), portalSessions: new Map(), subscriptions: new Map(), replays: new Map() };
}

/** The state stored in `file`, or an empty one when there is none (or of another version). Throws on unreadable JSON. */
export function loadState(file: string | undefined): StandInState {
  const state = emptyState();
  if (!file || !existsSync(file)) return state;
  const saved = JSON.parse(readFileSync(file, "utf8")) as { version?: number } & Record<string, [string, unknown][]>;
  if (saved.version !== STATE_VERSION) return state;
  for (const key of KEYS) for (const [id, value] of saved[key] ?? []) (state[key] as Map<string, unknown>).set(id, value);
  return state;
}

/** Writes `state` to `file` (no-op without one): a temporary file, then a rename, so a crash leaves the old or the new file whole. */
export function saveState(file: string | undefined, state: StandInState): void {
  if (!file) return;
  mkdirSync(dirname(file), { recursive: true });
  const out: Record<string, unknown> = { version: STATE_VERSION };
  for (const key of KEYS) out[key] = [...state[key].entries()];
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(out));
  renameSync(tmp, file);
}
