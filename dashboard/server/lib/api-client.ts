/**
 * Calls to the API worker through the `API` service binding, with the internal secret and
 * `?project_id=` (docs/interface.md section 5.6). The secret only travels between the two workers.
 * A refusal of the API (4xx) is passed on as the same status and `{detail}`; anything else
 * becomes a 502, without the API's body.
 */
import { ApiError } from "../../../src/errors";
import type { DashboardEnv } from "../env";

/** Options of `callApi`. */
export interface ApiCall {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  /** Appended as `?project_id=` (the routes under /api/ need it with the secret). */
  projectId?: string;
  /** Sent as JSON. */
  body?: unknown;
  /** Extra query parameters. */
  query?: Record<string, string>;
}

/** Calls the API and returns its JSON (null for 204); throws ApiError on a refusal. */
export async function callApi<T>(env: DashboardEnv, path: string, call: ApiCall = {}): Promise<T> {
  const url = new URL(path, "https://api.internal");
  if (call.projectId) url.searchParams.set("project_id", call.projectId);
  for (const [k, v] of Object.entries(call.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = { "X-Internal-Secret": env.INTERNAL_API_SECRET };
  if (call.body !== undefined) headers["Content-Type"] = "application/json";
  const res = await env.API.fetch(url, {
    method: call.method ?? "GET",
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
  });
  if (res.status === 204) return null as T;
  const text = await res.text();
  if (res.ok) return JSON.parse(text) as T;
  if (res.status >= 400 && res.status < 500 && res.status !== 401) {
    const detail = (() => {
      try {
        return String((JSON.parse(text) as { detail?: unknown }).detail ?? "request refused");
      } catch {
        return "request refused";
      }
    })();
    throw new ApiError(res.status as 400, detail);
  }
  // 401 would mean our own secret is wrong: a deployment fault, not the user's.
  console.error(JSON.stringify({ msg: "API call failed", path: url.pathname, status: res.status }));
  if (res.status === 503) throw new ApiError(503, "the service is unavailable, try again later");
  throw new ApiError(502, "the API could not complete the request");
}
