/**
 * Helpers of the dashboard server tests: requests through the real Hono app of the dashboard,
 * whose `API` binding reaches the real API worker (SELF) in the same workerd.
 */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from "cloudflare:test";
import { hc } from "hono/client";
import { createDashboardApp, type DashboardApp } from "../../server/app";
import type { DashboardEnv } from "../../server/env";
import { DASHBOARD_TEST_BINDINGS } from "./constants";

const app = createDashboardApp();
export const ORIGIN = DASHBOARD_TEST_BINDINGS.DASHBOARD_URL;
const dashEnv = { ...(env as unknown as DashboardEnv), API: { fetch: (input: RequestInfo | URL, init?: RequestInit) => SELF.fetch(input, init) } as Fetcher };

/** Options of `dash`: a JSON body (or raw text sent as JSON), the session cookie, and header overrides. */
export interface DashInit {
  method?: string;
  json?: unknown;
  /** Raw body text, sent with `Content-Type: application/json` unless a header says otherwise. */
  body?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

/**
 * A distinct client address per test user, so sign-in throttling (5 a minute per address) counts
 * each apart, also across test files running at once: random in 10.0.0.0/8 (16.7 million).
 */
export const nextIp = () => {
  const [a, b, c] = crypto.getRandomValues(new Uint8Array(3));
  return `10.${a}.${b}.${c}`;
};

/** Sends a request to the dashboard's server as a same-origin browser would (a fresh client address unless given). */
export async function dash(path: string, init: DashInit = {}): Promise<Response> {
  const headers = new Headers({ Origin: ORIGIN, "cf-connecting-ip": nextIp(), ...init.headers });
  if (init.cookie) headers.set("Cookie", init.cookie);
  const body = init.body ?? (init.json !== undefined ? JSON.stringify(init.json) : undefined);
  if (body !== undefined && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`${ORIGIN}${path}`, { method: init.method ?? (body !== undefined ? "POST" : "GET"), headers, body }), dashEnv, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

/** The browser's typed client of the dashboard server (`hc<DashboardApp>`), signed in as `user`, sending through `dash`. */
export function typedClient(user: Pick<TestUser, "cookie">) {
  return hc<DashboardApp>(ORIGIN, {
    fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
      const req = new Request(input, init);
      const url = new URL(req.url);
      const body = req.method === "GET" || req.method === "HEAD" ? "" : await req.text();
      return dash(url.pathname + url.search, { method: req.method, cookie: user.cookie, headers: Object.fromEntries(req.headers), ...(body ? { body } : {}) });
    }) as typeof fetch,
  });
}

/** The `Cookie` header value for the cookies a response sets. */
export function cookiesOf(res: Response): string {
  return res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}

/** A signed-up user: their session cookie, email and first project. */
export interface TestUser {
  cookie: string;
  email: string;
  userId: string;
}

export const PASSWORD = "correct horse battery";

/** Signs up a fresh user and returns their session. */
export async function signUp(name = "Test User"): Promise<TestUser> {
  const email = `u${crypto.randomUUID().slice(0, 12)}@example.com`;
  const res = await dash("/api/auth/sign-up/email", { json: { email, password: PASSWORD, name }, headers: { "cf-connecting-ip": nextIp() } });
  if (res.status !== 200) throw new Error(`sign-up: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { user: { id: string } };
  return { cookie: cookiesOf(res), email, userId: body.user.id };
}

/** A project as GET /api/projects lists it. */
export interface ProjectRow {
  id: string;
  name: string;
  organization_id: string;
  role: string;
}

/** The user's projects (creating the first one on the first call). */
export async function projectsOf(user: TestUser): Promise<ProjectRow[]> {
  const res = await dash("/api/projects", { cookie: user.cookie });
  if (res.status !== 200) throw new Error(`projects: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { items: ProjectRow[] }).items;
}

/** Adds `user` to `owner`'s organisation with `role` through an invitation it accepts. */
export async function joinAs(owner: TestUser, organizationId: string, user: TestUser, role: "admin" | "member" | "viewer") {
  const invite = await dash("/api/auth/organization/invite-member", { cookie: owner.cookie, json: { email: user.email, role, organizationId } });
  if (invite.status !== 200) throw new Error(`invite: ${invite.status} ${await invite.text()}`);
  const { id } = (await invite.json()) as { id: string };
  const accept = await dash("/api/auth/organization/accept-invitation", { cookie: user.cookie, json: { invitationId: id } });
  if (accept.status !== 200) throw new Error(`accept: ${accept.status} ${await accept.text()}`);
}

/** A newly signed-up user who joined `owner`'s organisation with `role` (through `joinAs`). */
export async function newUserAs(owner: TestUser, organizationId: string, role: "admin" | "member" | "viewer"): Promise<TestUser> {
  const user = await signUp();
  await joinAs(owner, organizationId, user, role);
  return user;
}

/** A newly signed-up owner and the first project of their organisation (made on first listing). */
export async function ownerWithProject(): Promise<{ owner: TestUser; project: ProjectRow }> {
  const owner = await signUp();
  const [project] = await projectsOf(owner);
  if (!project) throw new Error("projects: a new user has no project");
  return { owner, project };
}
