/**
 * Upstream choice, as a table. A request reaches exactly one upstream:
 *
 * 1. a named route, chosen by the first path segment (`/groq/v1/chat/completions` goes to
 *    `https://api.groq.com/openai/v1/chat/completions`);
 * 2. otherwise the `X-Upstream-Base-URL` header, when its origin is in `UPSTREAM_ALLOWLIST`;
 * 3. otherwise `UPSTREAM_BASE_URL`, or OpenAI.
 *
 * The set of reachable hosts is therefore fixed by this table and by configuration: a caller
 * cannot make the proxy fetch an arbitrary host.
 */
import { UPSTREAM_HEADER } from "./headers";

/** What of the proxy's configuration (config.ts `ProxyConfig`) routing reads. */
export interface UpstreamSettings {
  /** The default upstream base URL. */
  upstreamBase: string;
  /** Provider name logged for the default upstream. */
  upstreamProvider: string;
  /** Origins `X-Upstream-Base-URL` may name; empty: the header is refused. */
  upstreamAllowlist: ReadonlySet<string>;
}

/** One provider reachable under `/{prefix}/...`. */
export interface NamedUpstream {
  /** Provider name written to the log (also the genai-prices provider id). */
  provider: string;
  /** Base URL the rest of the path is appended to (no trailing slash). */
  base: string;
}

/** OpenAI's API base; the default upstream. */
export const OPENAI_BASE = "https://api.openai.com";

/** Named routes of OpenAI-compatible providers (base URLs from each provider's API docs). */
export const NAMED_UPSTREAMS: Readonly<Record<string, NamedUpstream>> = {
  openai: { provider: "openai", base: OPENAI_BASE },
  groq: { provider: "groq", base: "https://api.groq.com/openai" },
  together: { provider: "together", base: "https://api.together.xyz" },
  openrouter: { provider: "openrouter", base: "https://openrouter.ai/api" },
  mistral: { provider: "mistral", base: "https://api.mistral.ai" },
  deepseek: { provider: "deepseek", base: "https://api.deepseek.com" },
};

/**
 * Azure resource names: letters, digits and hyphens, 2 to 64 characters, no leading or
 * trailing hyphen. Anything else could smuggle another host into the URL, so it is refused.
 */
const AZURE_RESOURCE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])$/i;

/** Where one request goes. */
export interface UpstreamTarget {
  /** Full upstream URL: base + remaining path + the original query string. */
  url: URL;
  /** Provider name for the log. */
  provider: string;
  /** Which rule chose it (logged in metadata.route). */
  route: string;
  /** Azure deployment name from the path, the model when the body names none. */
  deployment?: string;
}

/** A refused request: answered with `status` and `{detail}`, nothing sent upstream. */
export interface UpstreamRefusal {
  status: 400 | 403;
  detail: string;
}

/** Joins a base URL (which may carry a path) and a request path + query. */
function join(base: string, path: string, search: string): URL {
  const url = new URL(base);
  url.pathname = url.pathname.replace(/\/+$/, "") + (path.startsWith("/") ? path : `/${path}`);
  url.search = search;
  return url;
}

/** Provider name for a base URL: the named route with the same origin, else `fallback`. */
export function providerForBase(base: string, fallback: string): string {
  const origin = new URL(base).origin;
  const known = Object.values(NAMED_UPSTREAMS).find((r) => new URL(r.base).origin === origin);
  return known?.provider ?? fallback;
}

/** `/azure/{resource}/...` → `https://{resource}.openai.azure.com/openai/...` (api-version kept). */
function azureTarget(rest: string[], search: string): UpstreamTarget | UpstreamRefusal {
  const [resource, ...path] = rest;
  if (!resource || !AZURE_RESOURCE.test(resource))
    return { status: 400, detail: "the /azure/ route needs a resource name: /azure/{resource}/openai/deployments/..." };
  // The Azure SDK appends /openai/... itself; accept both /azure/r/openai/... and /azure/r/deployments/...
  const tail = path[0] === "openai" ? path.slice(1) : path;
  const deployment = tail[0] === "deployments" ? tail[1] : undefined;
  return {
    url: join(`https://${resource.toLowerCase()}.openai.azure.com/openai`, tail.join("/"), search),
    provider: "azure",
    route: "azure",
    ...(deployment ? { deployment: decodeURIComponent(deployment) } : {}),
  };
}

/** The allow-listed `X-Upstream-Base-URL`, or why it is refused. */
function headerTarget(value: string, config: UpstreamSettings, url: URL): UpstreamTarget | UpstreamRefusal {
  const allowed = config.upstreamAllowlist;
  if (allowed.size === 0) return { status: 403, detail: `${UPSTREAM_HEADER} is not enabled on this proxy (UPSTREAM_ALLOWLIST is empty)` };
  let base: URL;
  try {
    base = new URL(value);
  } catch {
    return { status: 400, detail: `${UPSTREAM_HEADER} is not an absolute URL` };
  }
  if ((base.protocol !== "https:" && base.protocol !== "http:") || !allowed.has(base.origin))
    return { status: 403, detail: `${UPSTREAM_HEADER} origin ${base.origin} is not in UPSTREAM_ALLOWLIST` };
  return { url: join(base.href, url.pathname, url.search), provider: providerForBase(base.href, "custom"), route: "header" };
}

/** Chooses the upstream of one request (see the module doc for the order of the rules). */
export function resolveUpstream(request: Request, config: UpstreamSettings): UpstreamTarget | UpstreamRefusal {
  const url = new URL(request.url);
  const [first = "", ...rest] = url.pathname.split("/").slice(1);
  const header = request.headers.get(UPSTREAM_HEADER);
  const named = Object.hasOwn(NAMED_UPSTREAMS, first) ? NAMED_UPSTREAMS[first] : undefined;
  if ((named || first === "azure") && header !== null) return { status: 400, detail: `${UPSTREAM_HEADER} cannot be combined with the /${first}/ route` };
  if (first === "azure") return azureTarget(rest, url.search);
  if (named) return { url: join(named.base, rest.join("/"), url.search), provider: named.provider, route: first };
  if (header !== null) return headerTarget(header, config, url);
  return { url: join(config.upstreamBase, url.pathname, url.search), provider: config.upstreamProvider, route: "default" };
}

/** Narrows a `resolveUpstream` result. */
export const isRefusal = (r: UpstreamTarget | UpstreamRefusal): r is UpstreamRefusal => "status" in r;
