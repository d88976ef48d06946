/**
 * SSRF guard of alert webhook URLs (docs/webhooks.md "Which URLs are accepted"), applied when an
 * endpoint is created and again before every delivery attempt.
 *
 * Refused: anything but https (http only when loopback is allowed); IP literals outside the
 * public unicast space as ipaddr.js classifies it (loopback 127.0.0.0/8 and ::1, private
 * 10/8, 172.16/12, 192.168/16, link-local 169.254/16 and fe80::/10, unique-local fc00::/7,
 * carrier-grade NAT 100.64/10, unspecified, multicast, broadcast, reserved and documentation
 * ranges, IPv4-mapped IPv6 judged as the IPv4 inside); and names that only resolve on a local
 * network: `localhost` and `*.localhost` (RFC 6761), `*.local` (mDNS, RFC 6762), `*.home.arpa`
 * (RFC 8375), `*.internal` (ICANN's private-use TLD, e.g. metadata.google.internal),
 * `*.localdomain`, and single-label names (resolved through local search domains).
 *
 * The bound: names are not resolved here (Workers have no DNS API and DNS-over-HTTPS is not
 * reachable from every deployment), so a public name whose DNS record points at a private
 * address passes this check. Deployed on Cloudflare, the request then leaves from Cloudflare's
 * edge, which cannot reach the deployment's own private network; self-hosted deployments that run
 * the workers inside a private network should also filter egress.
 *
 * With `allowLoopback` (WEBHOOK_ALLOW_LOOPBACK=true, set by `npm run dev`) http is accepted and
 * loopback addresses and `localhost` are allowed; every other private range stays refused.
 */
import ipaddr from "ipaddr.js";

/** Suffixes of names that resolve only inside a local network. */
const LOCAL_SUFFIXES = [".localhost", ".local", ".home.arpa", ".internal", ".localdomain"] as const;

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/**
 * Why `raw` may not be a webhook URL, or null when it may. Never throws.
 * `raw` must be an absolute URL; the reason is a short English phrase for a 422 `detail`.
 */
export function refuseWebhookUrl(raw: string, opts: { allowLoopback: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "must be an absolute URL";
  }
  if (url.protocol !== "https:" && !(opts.allowLoopback && url.protocol === "http:")) return "must use https";
  if (url.username || url.password) return "must not carry credentials";
  // WHATWG URL has already normalised IPv4 forms (0x7f.1, 2130706433) to dotted decimal.
  const host = url.hostname
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "")
    .toLowerCase();
  if (ipaddr.isValid(host)) {
    const range = ipaddr.process(host).range();
    if (range === "unicast") return null;
    if (range === "loopback" && opts.allowLoopback) return null;
    return `must not point to a ${range} address`;
  }
  if (isLoopbackName(host)) return opts.allowLoopback ? null : "must not point to localhost";
  if (LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return "must not point to a local-network name";
  if (!host.includes(".")) return "must be a fully qualified public host name";
  return null;
}
