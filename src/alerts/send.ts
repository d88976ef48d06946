/**
 * One delivery attempt: checks the URL again (url-guard.ts), signs the body the Standard
 * Webhooks way with the `standardwebhooks` package (headers `webhook-id`, `webhook-timestamp`
 * in Unix seconds, `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`) and
 * POSTs it within a timeout. Redirects are not followed (a redirect could lead to a private
 * address the guard never saw).
 */
import { Webhook } from "standardwebhooks";
import { refuseWebhookUrl } from "./url-guard";

/** What an attempt came to. `status` is the HTTP status, null when no answer came. */
export type AttemptOutcome =
  | { ok: true; status: number }
  | { ok: false; status: number | null; error: string /** Worth trying again: network error, timeout, 408, 429 or 5xx. */; retryable: boolean };

/** True for answers worth another try (Standard Webhooks receivers answer 2xx on success). */
const retryableStatus = (status: number) => status >= 500 || status === 408 || status === 429;

/** A new signing secret: `whsec_` + base64 of 24 random bytes (the form `Webhook` accepts). */
export function newSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}

/** The three Standard Webhooks headers for `body` sent as message `id` at `at`. */
export function signatureHeaders(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}

/** Posts `body` to `url`, signed with `secret` as message `id`. Never throws. */
export async function attemptDelivery(
  target: { url: string; secret: string },
  message: { id: string; body: string },
  opts: { timeoutMs: number; allowLoopback: boolean },
): Promise<AttemptOutcome> {
  const refused = refuseWebhookUrl(target.url, opts);
  if (refused) return { ok: false, status: null, error: `URL refused: ${refused}`, retryable: false };
  const headers = {
    "content-type": "application/json",
    "user-agent": "Sightline-Webhooks/1",
    ...signatureHeaders(target.secret, message.id, new Date(), message.body),
  };
  try {
    const res = await fetch(target.url, { method: "POST", headers, body: message.body, redirect: "manual", signal: AbortSignal.timeout(opts.timeoutMs) });
    await res.body?.cancel().catch(() => {});
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    const redirect = res.status >= 300 && res.status < 400;
    return {
      ok: false,
      status: res.status,
      error: redirect ? `HTTP ${res.status} (redirects are not followed)` : `HTTP ${res.status}`,
      retryable: retryableStatus(res.status),
    };
  } catch (err) {
    const timedOut = err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError");
    const error = timedOut ? `timeout after ${opts.timeoutMs} ms` : `network error: ${String(err).slice(0, 200)}`;
    return { ok: false, status: null, error, retryable: true };
  }
}
