/**
 * Settings of alert webhooks, parsed once from the worker's variables (wrangler.jsonc `vars` of
 * the API and scorer workers; docs/webhooks.md). Unset or malformed values take the defaults.
 */

/** The variables read (all optional strings, as Workers `vars` arrive). */
export interface AlertVars {
  /** "true" under `npm run dev`: http and loopback URLs (127.0.0.0/8, ::1, localhost) are allowed. */
  WEBHOOK_ALLOW_LOOPBACK?: string;
  /** HTTP attempts per delivery before it is dead-lettered (default 11: about 28 h, see retry.ts). */
  WEBHOOK_MAX_ATTEMPTS?: string;
  /** First retry delay in seconds (default 10); each next delay is 4 times longer, capped at 6 h. */
  WEBHOOK_RETRY_BASE_SECONDS?: string;
  /** Milliseconds an endpoint has to answer an attempt (default 10000). */
  WEBHOOK_TIMEOUT_MS?: string;
  /** Base URL of the dashboard, for `data.dashboard_url` (e.g. https://app.example.com); blank: null. */
  DASHBOARD_URL?: string;
}

/** Parsed settings. */
export interface AlertConfig {
  allowLoopback: boolean;
  maxAttempts: number;
  /** Seconds. */
  retryBaseSeconds: number;
  /** Milliseconds. */
  timeoutMs: number;
  /** Without a trailing slash; "" when not configured. */
  dashboardUrl: string;
}

/** Defaults (docs/webhooks.md "Retries"). */
export const ALERT_DEFAULTS: AlertConfig = { allowLoopback: false, maxAttempts: 11, retryBaseSeconds: 10, timeoutMs: 10_000, dashboardUrl: "" };

const positiveInt = (value: string | undefined, fallback: number) => {
  const n = Number(value);
  return value && Number.isInteger(n) && n > 0 ? n : fallback;
};

/** Reads the settings from a worker's env. */
export function alertConfig(env: AlertVars): AlertConfig {
  return {
    allowLoopback: env.WEBHOOK_ALLOW_LOOPBACK === "true",
    maxAttempts: positiveInt(env.WEBHOOK_MAX_ATTEMPTS, ALERT_DEFAULTS.maxAttempts),
    retryBaseSeconds: positiveInt(env.WEBHOOK_RETRY_BASE_SECONDS, ALERT_DEFAULTS.retryBaseSeconds),
    timeoutMs: positiveInt(env.WEBHOOK_TIMEOUT_MS, ALERT_DEFAULTS.timeoutMs),
    dashboardUrl: (env.DASHBOARD_URL ?? "").replace(/\/+$/, ""),
  };
}
