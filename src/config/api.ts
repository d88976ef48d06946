/**
 * The API worker's configuration: every variable of wrangler.jsonc `vars`, its secrets and its
 * bindings, validated once per env object (`apiConfig`) and typed. Routes read it as
 * `c.var.config` (workers/api/src/middleware/config.ts); the log-records consumer calls `apiConfig(env)`.
 * Defaults are those of docs/configuration.md; a bad value is a `ConfigError` naming it.
 */
import { z } from "zod";
import { alertVars, toAlertConfig } from "../alerts/config";
import { priceTable } from "../billing/prices";
import { DEFAULT_TIER_LIMITS, DEFAULT_TIER_RETENTION } from "../billing/tiers";
import { TIERS } from "../enums";
import { DEFAULT_BODY_MAX_BYTES } from "../http/body-limit";
import { databaseVars, toDbConfig } from "./database";
import { configParser } from "./parse";
import { binding, flagVar, httpUrlVar, jsonTableVar, originListVar, positiveIntVar, secretVar, textVar } from "./vars";

/** The API worker's variables and bindings as they arrive (strings; see docs/configuration.md). */
export const apiVars = z.object({
  /** "false": /docs answers 404. */
  DOCS_ENABLED: flagVar(true),
  /** Largest request body in bytes (413 above it); default 2 MiB. */
  LOG_MAX_BYTES: positiveIntVar(DEFAULT_BODY_MAX_BYTES),
  /** Monthly request limits per tier, JSON overrides of the tier table (e.g. `{"free": 50}`). */
  TIER_LIMITS: jsonTableVar(TIERS, DEFAULT_TIER_LIMITS),
  /** Retention days per tier, JSON overrides of the tier table (e.g. `{"free": 7}`). */
  TIER_RETENTION_DAYS: jsonTableVar(TIERS, DEFAULT_TIER_RETENTION),
  /** Stripe price ids of the paid tiers; blank: that tier is not sold by checkout. */
  STRIPE_PRICE_PRO: textVar,
  STRIPE_PRICE_TEAM: textVar,
  STRIPE_PRICE_ENTERPRISE: textVar,
  /** Origins that checkout and portal may send customers back to, comma-separated. */
  BILLING_RETURN_ORIGINS: originListVar,
  /** Base URL of the Stripe API (a local stand-in in tests and offline development); blank: Stripe. */
  STRIPE_API_BASE: httpUrlVar,
  /** Stripe secret API key; unset: checkout and portal answer 503. */
  STRIPE_SECRET_KEY: textVar,
  /** Signing secret of the Stripe webhook endpoint; unset: the webhook answers 503. */
  PAYMENT_WEBHOOK_SECRET: textVar,
  /** The dashboard's server-to-server secret (X-Internal-Secret). */
  INTERNAL_API_SECRET: secretVar,
  ...alertVars,
  ...databaseVars,
  SCORING_QUEUE: binding<Queue<unknown>>(),
  LOG_DEAD_LETTERS: binding<Queue<unknown>>(),
  LOG_PAYLOADS: binding<R2Bucket>(),
  /** Request and response bodies over the inline size (bucket `sightline-bodies`, src/bodies/). */
  BODIES: binding<R2Bucket>(),
});

/** The API worker's config: `apiVars` parsed, named for what they mean. */
const apiConfigSchema = apiVars.transform((v) => ({
  docsEnabled: v.DOCS_ENABLED,
  /** Bytes. */
  logMaxBytes: v.LOG_MAX_BYTES,
  tierLimits: v.TIER_LIMITS,
  tierRetention: v.TIER_RETENTION_DAYS,
  prices: priceTable({ pro: v.STRIPE_PRICE_PRO, team: v.STRIPE_PRICE_TEAM, enterprise: v.STRIPE_PRICE_ENTERPRISE }),
  returnOrigins: v.BILLING_RETURN_ORIGINS,
  stripe: { secretKey: v.STRIPE_SECRET_KEY, apiBase: v.STRIPE_API_BASE },
  paymentWebhookSecret: v.PAYMENT_WEBHOOK_SECRET,
  internalApiSecret: v.INTERNAL_API_SECRET,
  alerts: toAlertConfig(v),
  db: toDbConfig(v),
  scoringQueue: v.SCORING_QUEUE,
  logDeadLetters: v.LOG_DEAD_LETTERS,
  logPayloads: v.LOG_PAYLOADS,
  bodies: v.BODIES,
}));

/** The API worker's typed configuration. */
export type ApiConfig = z.output<typeof apiConfigSchema>;

/** The API worker's config from its env, parsed once per env object; throws `ConfigError`. */
export const apiConfig = configParser(apiConfigSchema);
