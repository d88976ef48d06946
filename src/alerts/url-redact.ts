/**
 * Webhook URLs shown to someone who may not read them whole (issue 32.7): a URL often is the
 * credential (a Slack incoming-webhook URL, a token in a query string). Viewers, members and API
 * keys without the `admin` scope see only where alerts go (workers/api/src/routes/alert-webhooks.ts,
 * dashboard/server/routes/webhooks.ts).
 */

/** Stands for the redacted path and query. */
export const REDACTED_PATH = "/…";

/**
 * `url` reduced to scheme, host and port, with `/…` when it has a path (other than `/`) or a
 * query: `https://hooks.slack.com/services/T0/B0/xyz` -> `https://hooks.slack.com/…`. Userinfo,
 * path, query and fragment never appear. A string that is no absolute URL gives `…`.
 */
export function redactedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "…";
  }
  const origin = `${parsed.protocol}//${parsed.host}`;
  return parsed.pathname !== "/" || parsed.search ? `${origin}${REDACTED_PATH}` : `${origin}/`;
}
