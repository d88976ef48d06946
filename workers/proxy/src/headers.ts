import { MIN_SECRET_LENGTH } from "../../../src/auth/redact";
/**
 * Which headers cross the proxy, in each direction.
 *
 * Hop-by-hop headers (RFC 9110 §7.6.1: Connection and the fields it names, plus Keep-Alive,
 * Proxy-Connection, TE, Transfer-Encoding, Upgrade; RFC 9110 §11.7 for Proxy-Authenticate /
 * Proxy-Authorization; Trailer) describe one connection and are never forwarded. Sightline's
 * own headers stop at the proxy: the project key must not reach a provider.
 */

/** Hop-by-hop fields, lower case (RFC 9110 §7.6.1). */
export const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Header carrying the application's Sightline key (never forwarded upstream). */
export const SERVICE_KEY_HEADER = "x-service-key";

/** Header choosing an allow-listed upstream per request (never forwarded upstream). */
export const UPSTREAM_HEADER = "x-upstream-base-url";

/** Header naming the conversation of the call; stored as `metadata.session_id` (never forwarded upstream). */
export const SESSION_HEADER = "x-sightline-session-id";

/** Sightline headers consumed by the proxy. */
const SIGHTLINE_HEADERS = new Set([SERVICE_KEY_HEADER, UPSTREAM_HEADER, SESSION_HEADER]);

/** Fields named by `Connection: a, b` are hop-by-hop too (RFC 9110 §7.6.1). */
function connectionTokens(headers: Headers): Set<string> {
  const value = headers.get("connection") ?? "";
  return new Set(
    value
      .split(",")
      .map((t) => t.trim().toLowerCase())
      .filter(Boolean),
  );
}

/**
 * Headers sent to the upstream: the application's headers (provider `Authorization`,
 * `api-key`, `OpenAI-Organization`, `Accept-Encoding`, ...) minus hop-by-hop fields, `Host`
 * (set from the target URL), `Content-Length` (set from the body), the Sightline headers and
 * the `cf-*` fields Cloudflare's edge adds to the incoming request.
 */
export function upstreamRequestHeaders(incoming: Headers): Headers {
  const named = connectionTokens(incoming);
  const out = new Headers();
  for (const [name, value] of incoming) {
    if (HOP_BY_HOP.has(name) || named.has(name) || SIGHTLINE_HEADERS.has(name)) continue;
    if (name === "host" || name === "content-length" || name.startsWith("cf-")) continue;
    out.append(name, value);
  }
  return out;
}

/**
 * Headers returned to the application: the upstream's, minus hop-by-hop fields. The body is
 * re-streamed, so `Content-Length` is dropped when the runtime decoded the body
 * (`Content-Encoding` present: the runtime re-encodes on the way out and frames the message
 * itself); otherwise the byte count is unchanged and the header is kept.
 */
export function clientResponseHeaders(upstream: Headers): Headers {
  const named = connectionTokens(upstream);
  const out = new Headers();
  for (const [name, value] of upstream) {
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.append(name, value);
  }
  if (upstream.has("content-encoding")) out.delete("content-length");
  return out;
}

/**
 * Request headers that carry credentials by name: `Authorization` (OpenAI, Bearer/Basic),
 * `api-key` (Azure OpenAI), `x-api-key` (Anthropic and many gateways), `x-goog-api-key`
 * (Gemini), `Ocp-Apim-Subscription-Key` (Azure API Management), `Cookie`, and any other
 * header whose name contains "key", "token", "secret" or "auth".
 */
const CREDENTIAL_HEADER = /key|token|secret|auth|^cookie$/i;

/**
 * Secret values carried by a request's headers (`CREDENTIAL_HEADER`, including the Sightline
 * key), so the log record can be scrubbed of any copy of them, e.g. an upstream that echoes
 * the request's headers in its body. `Authorization` counts without its scheme, `Cookie` per
 * cookie value. Values shorter than `MIN_SECRET_LENGTH` (src/auth/redact.ts) are ignored: too short
 * to be a key and too likely to match ordinary text.
 */
export function secretValues(incoming: Headers): string[] {
  const values: string[] = [];
  for (const [name, value] of incoming) {
    if (!CREDENTIAL_HEADER.test(name)) continue;
    if (name === "cookie") values.push(...value.split(";").map((pair) => pair.slice(pair.indexOf("=") + 1)));
    else values.push(value.replace(/^\s*(Bearer|Basic)\s+/i, ""));
  }
  return [...new Set(values.map((v) => v.trim()).filter((v) => v.length >= MIN_SECRET_LENGTH))];
}
