/**
 * Issue 26.3: properties over every route of the dashboard server (fast-check, in workerd,
 * against the real API and database), as test/api/properties.test.ts has for the API. Whatever
 * the id in the path (NUL, a path traversal, 2,000 characters, SQL, an emoji, a uuid with a
 * trailing letter, arbitrary bytes), the body (any JSON, garbage, deep nesting, over 2 MiB) or
 * the query, the server never answers 500; a malformed id is 404 or 422, and every refusal of
 * our routes is `{"detail": "..."}`. Better Auth's routes (their own error shape) never answer
 * 500 either, NUL ids included. Run counts are bounded (about 400 requests in all).
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { logBody, postLog, sql } from "../../../test/api/helpers";
import { dash, projectsOf, signUp, type TestUser } from "./helpers";

const UUID = "0192d7a0-7c1e-7000-8000-000000000000";

/** The malformed ids of the issue, as they appear in a path (percent-encoded where needed). */
const BAD_PATH_IDS = ["%00", "..%2F..%2Fetc%2Fpasswd", "..", "x".repeat(2000), "1'%20OR%20'1'%3D'1", "%F0%9F%98%80", `${UUID}a`, "%E0%A4%A", "%", "null"];
/** The same kinds of id as JSON string values (for Better Auth's bodies). */
const BAD_JSON_IDS = ["\u0000", "a\u0000b", "../../etc/passwd", "x".repeat(2000), "1' OR '1'='1", "😀", `${UUID}a`, "\ud800", ""];

/** An id segment: one of the issue's, or arbitrary bytes percent-encoded. */
const badPathId = fc.oneof(
  fc.constantFrom(...BAD_PATH_IDS),
  fc.uint8Array({ minLength: 1, maxLength: 12 }).map((b) => Array.from(b, (x) => `%${x.toString(16).padStart(2, "0")}`).join("")),
  fc.string({ minLength: 1, maxLength: 40 }).map((s) => encodeURIComponent(s.toWellFormed())),
);

/** Any JSON value with strings that trip PostgreSQL, bounded in size. */
const nasty = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...BAD_JSON_IDS));
const json: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    nasty,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(nasty, tie("value"), { maxKeys: 3 }),
  ),
})).value;

/** Body text: a route's valid body with fields replaced, any JSON, garbage, deep nesting. */
const bodyText = (valid: Record<string, unknown>) =>
  fc.oneof(
    fc.dictionary(fc.constantFrom(...Object.keys(valid), "x"), json, { maxKeys: 2 }).map((patch) => JSON.stringify({ ...valid, ...patch })),
    json.map((v) => JSON.stringify(v)),
    fc.constantFrom("", "{", "[1,]", "\u0000", "[".repeat(5000) + "]".repeat(5000), JSON.stringify({ ...valid, name: "n".repeat(100_000) })),
  );

type Route = { method: string; path: (p: string, id: string) => string; body?: Record<string, unknown> };

/** Routes with an inner id (`id`), under the owner's project. */
const ID_ROUTES: Route[] = [
  { method: "GET", path: (p, id) => `/api/projects/${p}/requests/${id}` },
  { method: "POST", path: (p, id) => `/api/projects/${p}/safety-scores/${id}/review`, body: { verdict: "confirmed" } },
  { method: "POST", path: (p, id) => `/api/projects/${p}/keys/${id}/rotate`, body: {} },
  { method: "POST", path: (p, id) => `/api/projects/${p}/keys/${id}/revoke`, body: {} },
  { method: "DELETE", path: (p, id) => `/api/projects/${p}/keys/${id}` },
];

/** Every route of a project (`p` is the project id): the inner-id ones with a valid uuid, and the rest. */
const PROJECT_ROUTES: Route[] = [
  ...ID_ROUTES.map((r) => ({ ...r, path: (p: string) => r.path(p, UUID) })),
  { method: "PATCH", path: (p) => `/api/projects/${p}`, body: { name: "renamed" } },
  { method: "DELETE", path: (p) => `/api/projects/${p}` },
  { method: "GET", path: (p) => `/api/projects/${p}/keys` },
  { method: "POST", path: (p) => `/api/projects/${p}/keys`, body: { name: "k" } },
  { method: "GET", path: (p) => `/api/projects/${p}/billing` },
  { method: "POST", path: (p) => `/api/projects/${p}/billing/checkout`, body: { tier: "pro" } },
  { method: "POST", path: (p) => `/api/projects/${p}/billing/portal`, body: {} },
  { method: "GET", path: (p) => `/api/projects/${p}/activity` },
  { method: "GET", path: (p) => `/api/projects/${p}/requests?limit=5` },
  { method: "GET", path: (p) => `/api/projects/${p}/requests/count` },
  { method: "GET", path: (p) => `/api/projects/${p}/requests/export` },
  { method: "GET", path: (p) => `/api/projects/${p}/pii-reveals` },
  { method: "GET", path: (p) => `/api/projects/${p}/stats/timeseries?start=2026-11-01T00:00:00Z&end=2026-11-02T00:00:00Z` },
  { method: "GET", path: (p) => `/api/projects/${p}/safety-scores/summary` },
];

/** Checks the contract: never 5xx; a refusal of our routes is `{detail}`. */
async function expectContract(res: Response, what: string, detail = true) {
  const text = new TextDecoder().decode(await res.arrayBuffer());
  expect(res.status, `${what} -> ${res.status} ${text.slice(0, 200)}`).toBeLessThan(500);
  if (detail && res.status >= 400) expect(typeof (JSON.parse(text) as { detail?: unknown }).detail, `${what} -> ${text.slice(0, 200)}`).toBe("string");
}

/** Sends `route` with an optional raw body (a write without one gets `{}`). */
const send = (user: TestUser, method: string, path: string, body?: string) =>
  dash(path, { method, cookie: user.cookie, body: method === "GET" || method === "DELETE" ? undefined : (body ?? "{}") });

let owner: TestUser;
let projectId = "";
let organizationId = "";
beforeAll(async () => {
  owner = await signUp();
  const [project] = await projectsOf(owner);
  projectId = project!.id;
  organizationId = project!.organization_id;
  const { key } = (await (await dash(`/api/projects/${projectId}/keys`, { cookie: owner.cookie, json: { name: "p" } })).json()) as { key: string };
  const { id } = (await (await postLog(key, logBody())).json()) as { id: string };
  await sql(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), $1, $2, 'content_safety', 5, 'unsafe', 'test', created_at FROM llm_requests WHERE id = $1`,
    [id, projectId],
  );
});

describe("Properties of the dashboard server: never 500", () => {
  it("Should answer every malformed id of the issue with 404 or 422 and {detail}, on every id route", async () => {
    for (const id of BAD_PATH_IDS) {
      for (const route of ID_ROUTES) {
        const path = route.path(projectId, id);
        const res = await send(owner, route.method, path, route.body && JSON.stringify(route.body));
        expect([404, 422], `${route.method} ${path.slice(0, 120)} -> ${res.status}`).toContain(res.status);
        await expectContract(res, `${route.method} ${path.slice(0, 120)}`);
      }
    }
    // The owner's project is still there (a malformed id touched nothing).
    expect((await projectsOf(owner)).map((p) => p.id)).toContain(projectId);
  });

  it("Should answer a malformed id, inner or project, with 404 or 422 on any route", async () => {
    const routes = [...ID_ROUTES.map((r) => ({ r, inner: true })), ...PROJECT_ROUTES.map((r) => ({ r, inner: false }))];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), badPathId, async ({ r, inner }, id) => {
        const path = inner ? r.path(projectId, id) : r.path(id, UUID);
        const res = await send(owner, r.method, path, r.body && JSON.stringify(r.body));
        expect([404, 405, 422], `${r.method} ${path.slice(0, 120)} -> ${res.status}`).toContain(res.status);
        await expectContract(res, `${r.method} ${path.slice(0, 120)}`);
      }),
      { numRuns: 80 },
    );
  });

  it("Should never answer 500 to any body on a write route, and 413 to one over 2 MiB", async () => {
    const writes = [
      ...PROJECT_ROUTES.filter((r) => r.body && r.method !== "PATCH"),
      { method: "POST", path: () => "/api/projects", body: { name: "p", organization_id: "o" } },
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.integer({ min: 0, max: 10_000 }), async (route, seed) => {
        const body = fc.sample(bodyText(route.body!), { numRuns: 1, seed })[0]!;
        const path = route.path(projectId, UUID);
        await expectContract(await send(owner, route.method, path, body), `${route.method} ${path} ${body.slice(0, 80)}`);
      }),
      { numRuns: 60 },
    );
    const big = JSON.stringify({ name: "n".repeat(3 * 1024 * 1024) });
    for (const route of [...writes, { method: "PATCH", path: (p: string) => `/api/projects/${p}` }]) {
      const res = await send(owner, route.method, route.path(projectId, UUID), big);
      expect(res.status, `${route.method} ${route.path(projectId, UUID)}`).toBe(413);
      await expectContract(res, "413");
    }
    // Better Auth's routes have the same limit: a 3 MiB invite address is refused before it.
    const invite = await dash("/api/auth/organization/invite-member", {
      cookie: owner.cookie,
      json: { email: `${"a".repeat(3 * 1024 * 1024)}@example.com`, role: "viewer", organizationId },
    });
    expect(invite.status).toBe(413);
  });

  it("Should refuse an over-long field with 422 naming it, before anything is stored", async () => {
    // Under the body limit (the test bindings lower LOG_MAX_BYTES to 1 MiB), far over the field's.
    const name = "n".repeat(100_000);
    for (const [path, body] of [
      ["/api/projects", { name, organization_id: organizationId }],
      [`/api/projects/${projectId}/keys`, { name }],
      ["/api/auth/organization/invite-member", { email: `${"a".repeat(100_000)}@example.com`, role: "viewer", organizationId }],
      ["/api/auth/sign-up/email", { email: "x@example.com", password: "correct horse battery", name }],
    ] as const) {
      const res = await dash(path, { cookie: owner.cookie, json: body });
      expect(res.status, path).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^(name|email): at most \d+ characters$/);
    }
    expect(await sql("SELECT 1 FROM auth_invitation WHERE length(email) > 1000")).toEqual([]);
  });

  it("Should never answer 500 from Better Auth, NUL ids included", async () => {
    const routes: [string, (id: string) => Record<string, unknown>][] = [
      ["/api/auth/organization/accept-invitation", (id) => ({ invitationId: id })],
      ["/api/auth/organization/set-active", (id) => ({ organizationId: id })],
      ["/api/auth/organization/remove-member", (id) => ({ memberIdOrEmail: id, organizationId })],
      ["/api/auth/organization/update-member-role", (id) => ({ memberId: id, role: "viewer", organizationId })],
      ["/api/auth/organization/cancel-invitation", (id) => ({ invitationId: id })],
    ];
    for (const id of BAD_JSON_IDS) {
      for (const [path, body] of routes)
        await expectContract(await dash(path, { cookie: owner.cookie, json: body(id) }), `${path} ${JSON.stringify(id).slice(0, 40)}`, false);
      const query = encodeURIComponent(id.toWellFormed());
      await expectContract(
        await dash(`/api/auth/organization/get-full-organization?organizationId=${query}`, { cookie: owner.cookie }),
        `get-full-organization ${query.slice(0, 40)}`,
        false,
      );
    }
    const nul = await dash("/api/auth/organization/accept-invitation", { cookie: owner.cookie, json: { invitationId: "a\u0000b" } });
    expect(nul.status).toBe(422);
    expect(((await nul.json()) as { detail: string }).detail).toBe("invitationId: must not contain NUL or unpaired surrogate characters");
  });
});
