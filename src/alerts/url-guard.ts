/**
 * SSRF guard of alert webhook URLs (docs/webhooks.md "Which URLs are accepted"), applied when an
 * endpoint is created and again before every delivery attempt.
 *
 * Refused: anything but https (http only when loopback is allowed); IP literals outside the
 * public unicast space as ipaddr.js classifies it (loopback 127.0.0.0/8 and ::1, private
 * 10/8, 172.16/12, 192.168/16, link-local 169.254/16 and fe80::/10, unique-local fc00::/7,
 * carrier-grade NAT 100.64/10, unspecified, multicast, broadcast, reserved and documentation
 * ranges); an IPv6 address that embeds an IPv4 address (IPv4-compatible `::a9fe:a9fe`,
 * IPv4-mapped `::ffff:`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`:
 * ./embedded-ipv4.ts) judged as the IPv4 address inside, and the NAT64 local-use prefix
 * `64:ff9b:1::/48` whatever it embeds; and names that only resolve on a local
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
import { embeddedIPv4, LOCAL_USE_NAT64 } from "./embedded-ipv4";

/** Suffixes of names that resolve only inside a local network. */
const LOCAL_SUFFIXES = [".localhost", ".local", ".home.arpa", ".internal", ".localdomain"] as const;

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

/** Why an IP literal may not be a webhook's host, or null when it may. */
function refuseAddress(address: ipaddr.IPv4 | ipaddr.IPv6, opts: { allowLoopback: boolean }): string | null {
  let judged = address;
  let inside = "";
  if (address.kind() === "ipv6") {
    const v6 = address as ipaddr.IPv6;
    if (v6.match(LOCAL_USE_NAT64)) return "must not point to a local-use NAT64 address (64:ff9b:1::/48)";
    const v4 = embeddedIPv4(v6);
    if (v4) [judged, inside] = [v4, ` (${v4.toString()} inside an IPv6 address)`];
  }
  const range = judged.range();
  if (range === "unicast") return null;
  if (range === "loopback" && opts.allowLoopback) return null;
  return `must not point to a ${range} address${inside}`;
}

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
  if (ipaddr.isValid(host)) return refuseAddress(ipaddr.parse(host), opts);
  if (isLoopbackName(host)) return opts.allowLoopback ? null : "must not point to localhost";
  if (LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return "must not point to a local-network name";
  if (!host.includes(".")) return "must be a fully qualified public host name";
  return null;
}
