/**
 * Settings of alert webhooks, parsed with the worker's config (wrangler.jsonc `vars` of the API
 * and scorer workers; docs/webhooks.md): `alertVars` is the part of each worker's schema
 * (src/config/api.ts, workers/scorer/src/config.ts); unset or blank values take the defaults and
 * a malformed one is a `ConfigError` naming it.
 */
import { z } from "zod";
import { ConfigError } from "../config/error";
import { flagVar, positiveIntVar, textVar } from "../config/vars";
import { ALERT_DELIVERIES_RETRY } from "../queues/alert-deliveries";

/** Parsed settings. */
export interface AlertConfig {
  /** "true" under `npm run dev`: http and loopback URLs (127.0.0.0/8, ::1, localhost) are allowed. */
  allowLoopback: boolean;
  /** HTTP attempts per delivery before it is dead-lettered (default 11: about 28 h, see src/queues/alert-deliveries.ts). */
  maxAttempts: number;
  /** First retry delay in seconds (default 10); each next delay is 4 times longer, capped at 6 h. */
  retryBaseSeconds: number;
  /** Milliseconds an endpoint has to answer an attempt (default 10000). */
  timeoutMs: number;
  /** Base URL of the dashboard for `data.dashboard_url`, without a trailing slash; "" when not configured. */
  dashboardUrl: string;
}

/** Defaults (docs/webhooks.md "Retries"). */
export const ALERT_DEFAULTS: AlertConfig = {
  allowLoopback: false,
  maxAttempts: 11,
  retryBaseSeconds: ALERT_DELIVERIES_RETRY.firstSeconds,
  timeoutMs: 10_000,
  dashboardUrl: "",
};

/** The variables of alert webhooks (strings, as Workers `vars` arrive), as zod shape entries. */
export const alertVars = {
  WEBHOOK_ALLOW_LOOPBACK: flagVar(ALERT_DEFAULTS.allowLoopback),
  WEBHOOK_MAX_ATTEMPTS: positiveIntVar(ALERT_DEFAULTS.maxAttempts),
  WEBHOOK_RETRY_BASE_SECONDS: positiveIntVar(ALERT_DEFAULTS.retryBaseSeconds),
  WEBHOOK_TIMEOUT_MS: positiveIntVar(ALERT_DEFAULTS.timeoutMs),
  DASHBOARD_URL: textVar,
};

/** The parsed `alertVars` of a worker's config as `AlertConfig`. */
export function toAlertConfig(v: z.output<z.ZodObject<typeof alertVars>>): AlertConfig {
  return {
    allowLoopback: v.WEBHOOK_ALLOW_LOOPBACK,
    maxAttempts: v.WEBHOOK_MAX_ATTEMPTS,
    retryBaseSeconds: v.WEBHOOK_RETRY_BASE_SECONDS,
    timeoutMs: v.WEBHOOK_TIMEOUT_MS,
    dashboardUrl: (v.DASHBOARD_URL ?? "").replace(/\/+$/, ""),
  };
}

/** Reads the settings from variables alone (tests, tools); throws `ConfigError` naming a bad one. */
export function alertConfig(vars: Record<string, string | undefined>): AlertConfig {
  const result = z.object(alertVars).safeParse(vars);
  if (!result.success) throw ConfigError.fromZod(result.error);
  return toAlertConfig(result.data);
}
