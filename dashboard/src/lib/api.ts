/**
 * The dashboard's data layer: one fetch helper for the server routes under /api and the
 * TanStack Query keys per resource, so every page reads and invalidates the same caches.
 */

/** A refusal of the dashboard's server, with its `{detail}`. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

/** Calls a dashboard server route; writes always send JSON (the server refuses anything else). */
export async function request<T>(path: string, init: { method?: string; json?: unknown } = {}): Promise<T> {
  const method = init.method ?? (init.json !== undefined ? "POST" : "GET");
  const res = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: method === "GET" || method === "DELETE" ? {} : { "Content-Type": "application/json" },
    body: method === "GET" || method === "DELETE" ? undefined : JSON.stringify(init.json ?? {}),
  });
  if (res.status === 204) return null as T;
  const body = (await res.json().catch(() => ({}))) as { detail?: string };
  if (!res.ok) throw new RequestError(res.status, body.detail ?? `request failed (${res.status})`);
  return body as T;
}

/** Query keys, one family per resource. */
export const queryKeys = {
  projects: ["projects"] as const,
  keys: (projectId: string) => ["keys", projectId] as const,
  billing: (projectId: string) => ["billing", projectId] as const,
  activity: (projectId: string) => ["activity", projectId] as const,
  organization: (organizationId: string) => ["organization", organizationId] as const,
};

/** A project with the caller's role (GET /api/projects). */
export interface Project {
  id: string;
  name: string;
  created_at: string;
  organization_id: string;
  organization_name: string;
  role: "owner" | "admin" | "member" | "viewer";
}

/** An API key as listed (hint only). */
export interface ApiKey {
  id: string;
  name: string;
  key_hint: string;
  created_at: string;
  created_by: string | null;
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
}

/** A key with its full value: only in the create and rotate answers. */
export interface NewApiKey extends ApiKey {
  key: string;
}

/** The project's subscription and usage. */
export interface Subscription {
  tier: "free" | "pro" | "team" | "enterprise";
  status: string;
  limit: number | null;
  requests_this_period: number;
  /** Days calls are kept (docs/retention.md); null: kept. */
  retention_days: number | null;
  period_start_at: string;
  period_reset_at: string;
  payment_customer_id: string | null;
}

/** Whether the project has any logged call, and the public URLs for snippets. */
export interface Activity {
  has_requests: boolean;
  api_url: string;
  proxy_url: string;
}

const RANK = { viewer: 0, member: 1, admin: 2, owner: 3 } as const;
/** True when `role` is at least `needed` (the server enforces the same order). */
export const can = (role: Project["role"], needed: Project["role"]) => RANK[role] >= RANK[needed];
