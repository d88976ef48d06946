/**
 * The dashboard server's one door to the API: Hono's RPC client (`hc` from hono/client) typed
 * with the API app's own type (`ApiApp`, workers/api/src/app.ts), sent through the `API` service binding with
 * the internal secret (docs/interface.md section 5.6). Paths, inputs and response bodies are
 * checked against the API's route declarations at compile time; nothing is re-declared here.
 *
 * `unwrap` turns an answer into its typed body: a refusal of the API (4xx) is passed on as the
 * same status and `{detail}`; anything else becomes a 502 (503 stays 503), without the API's body.
 */
import { hc, type ClientResponse, type parseResponse } from "hono/client";
import type { ApiApp } from "../../../workers/api/src/app";
import { ApiError } from "../../../src/http/errors";
import type { DashboardConfig } from "../config";

/** Base URL of the API behind the service binding (the host is never resolved). */
const API_BASE = "https://api.internal";

/** A typed client of the API over the `API` service binding, carrying `X-Internal-Secret`. */
export function apiClient(config: Pick<DashboardConfig, "api" | "internalApiSecret">) {
  return hc<ApiApp>(API_BASE, {
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => config.api.fetch(input, init)) as typeof fetch,
    headers: { "X-Internal-Secret": config.internalApiSecret },
  });
}

/** The success body of a client call (what `parseResponse` of hono/client would return). */
export type ApiBody<R extends ClientResponse<unknown>> = Awaited<ReturnType<typeof parseResponse<R>>>;

/** What `refusal` reads of an answer (a fetch `Response` or a client's `ClientResponse`). */
interface Answer {
  status: number;
  url: string;
  json(): Promise<unknown>;
}

/** The `detail` of a refusal's JSON body, or `fallback`. */
async function detailOf(res: Answer, fallback: string): Promise<string> {
  try {
    const body = (await res.json()) as { detail?: unknown };
    return typeof body.detail === "string" ? body.detail : fallback;
  } catch {
    return fallback;
  }
}

/**
 * Throws the ApiError that answers a failed API response: the API's own 4xx (except 401: our
 * secret would be wrong, a deployment fault) with its `detail`; 503 as 503; anything else 502.
 */
export async function refusal(res: Answer, fallback = "request refused"): Promise<never> {
  if (res.status >= 400 && res.status < 500 && res.status !== 401) throw new ApiError(res.status as 400, await detailOf(res, fallback));
  console.error(JSON.stringify({ msg: "API call failed", path: new URL(res.url || API_BASE).pathname, status: res.status }));
  if (res.status === 503) throw new ApiError(503, "the service is unavailable, try again later");
  throw new ApiError(502, "the API could not complete the request");
}

/** Awaits a client call and returns its typed body (null for 204); throws ApiError on a refusal. */
export async function unwrap<R extends ClientResponse<unknown>>(call: Promise<R>): Promise<ApiBody<R>> {
  const res = await call;
  if (!res.ok) return refusal(res);
  if (res.status === 204) return null as ApiBody<R>;
  return (await res.json()) as ApiBody<R>;
}
