/**
 * API keys with scopes (issue 32, points 1, 7 and 9): `ingest`, `read`, `admin`. A key without
 * the scope a route needs gets 403 `{detail}`; keys read stored text masked unless they have
 * `admin` and ask `reveal=true`, which is audited with the key as actor; keys without `admin`
 * read webhook URLs redacted; the scopes column refuses unknown scopes; keys made before scopes
 * took their creator's role (migration function `sightline_role_key_scopes`).
 */
import { env } from "cloudflare:test";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { hashKey } from "../../src/auth/keys";
import { DEFAULT_TIER_LIMITS } from "../../src/billing/tiers";
import { type Db, workersSocket } from "../../src/db/driver/client";
import type { LogRecord } from "../../src/db/ingest-record";
import { ingestBatch } from "../../src/db/ingest-batch";
import { api, expectProblem, internal, logBody, newProject, postLog, sql, testEnv } from "./helpers";

const EMAIL = "jane.roe@example.com";
const CARD = "4111 1111 1111 1111";

/** Creates a key with `scopes` for `projectId` through /internal; returns its value and id. */
async function keyWith(projectId: string, scopes: string[], name = "scoped"): Promise<{ key: string; id: string; scopes: string[] }> {
  const res = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name, scopes } });
  if (res.status !== 201) throw new Error(`create key: ${res.status} ${await res.text()}`);
  return (await res.json()) as { key: string; id: string; scopes: string[] };
}

const as = (key: string, path: string, init: RequestInit & { json?: unknown } = {}) =>
  api(path, { ...init, headers: { ...(init.headers as Record<string, string>), "X-Service-Key": key } });

/** A project, its full key, and one logged call holding a planted e-mail and card number. */
async function projectWithPii() {
  const project = await newProject("scopes");
  const body = logBody({
    request_body: { messages: [{ role: "user", content: `Mail ${EMAIL}, pay with card ${CARD}` }] },
    metadata: { customer: EMAIL },
  });
  const logged = await postLog(project.key, body);
  expect(logged.status).toBe(202);
  const { id } = (await logged.json()) as { id: string };
  return { ...project, requestId: id };
}

describe("A member's key (ingest + read)", () => {
  it("Should answer 403 {detail} to policy PUT, webhook create and delete, re-score and reveal", async () => {
    const { projectId, requestId } = await projectWithPii();
    const { key } = await keyWith(projectId, ["ingest", "read"]);
    const hook = await api(`/api/webhooks?project_id=${projectId}`, { method: "POST", headers: internal, json: { url: "https://hooks.example.com/admin" } });
    const { id: hookId } = (await hook.json()) as { id: string };
    const refused: [string, string, unknown?][] = [
      ["PUT", "/api/policy", { store_pii: "keep", scorers: { pii_detection: { enabled: false } } }],
      ["POST", "/api/webhooks", { url: "https://hooks.example.com/member" }],
      ["DELETE", `/api/webhooks/${hookId}`],
      ["POST", `/api/webhooks/${hookId}/test`],
      ["POST", "/api/rescore", { since: "2026-11-01T00:00:00Z", until: "2026-11-02T00:00:00Z" }],
      ["GET", `/api/requests/${requestId}?reveal=true`],
      ["GET", "/api/requests/keyset?limit=5&reveal=true"],
    ];
    for (const [method, path, json] of refused) {
      const res = await as(key, path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.json(), `${method} ${path}`).toEqual({ detail: "this API key lacks the admin scope" });
    }
    // Nothing changed: the admin's webhook is there, no policy was stored, nothing was revealed.
    expect(await sql("SELECT 1 FROM alert_endpoints WHERE project_id = $1", [projectId])).toHaveLength(1);
    expect(await sql("SELECT 1 FROM project_policies WHERE project_id = $1", [projectId])).toHaveLength(0);
    expect(await sql("SELECT 1 FROM pii_reveals WHERE project_id = $1", [projectId])).toHaveLength(0);
  });

  it("Should read the planted e-mail and card masked in the detail and the lists", async () => {
    const { projectId, requestId } = await projectWithPii();
    const { key } = await keyWith(projectId, ["ingest", "read"]);
    const detail = await as(key, `/api/requests/${requestId}`);
    expect(detail.status).toBe(200);
    const text = JSON.stringify(await detail.json());
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(CARD);
    expect(text).toContain("[EMAIL]");
    expect(text).toContain("[CREDIT_CARD]");
    for (const path of ["/api/requests", "/api/requests/keyset?limit=10"]) {
      const list = JSON.stringify(await (await as(key, path)).json());
      expect(list, path).toContain(requestId);
      expect(list, path).not.toContain(EMAIL);
    }
    expect(await sql("SELECT 1 FROM pii_reveals WHERE project_id = $1", [projectId])).toHaveLength(0);
  });

  it("Should refuse a text search for personal data (403), not answer a count", async () => {
    const { projectId } = await projectWithPii();
    const { key } = await keyWith(projectId, ["read"]);
    for (const path of [`/api/requests?q=${EMAIL}`, `/api/requests/count?q=${EMAIL}`, `/api/requests/export?q=${EMAIL}`]) {
      await expectProblem(await as(key, path), 403, "q: searching for personal data needs an API key with the admin scope");
    }
    // A search without personal data is answered.
    expect((await as(key, "/api/requests/count?q=card")).status).toBe(200);
  });
});

describe("An admin key", () => {
  it("Should read raw with reveal=true and write a pii_reveals row naming the key", async () => {
    const { projectId, requestId } = await projectWithPii();
    const admin = await keyWith(projectId, ["read", "admin"], "auditor");
    // Without reveal=true an admin key reads masked, and nothing is recorded.
    expect(JSON.stringify(await (await as(admin.key, `/api/requests/${requestId}`)).json())).not.toContain(EMAIL);
    expect(await sql("SELECT 1 FROM pii_reveals WHERE project_id = $1", [projectId])).toHaveLength(0);

    const res = await as(admin.key, `/api/requests/${requestId}?reveal=true`);
    expect(res.status).toBe(200);
    const text = JSON.stringify(await res.json());
    expect(text).toContain(EMAIL);
    expect(text).toContain(CARD);
    const rows = await sql<{ request_id: string; api_key_id: string | null; user_id: string | null; user_email: string | null; fields: string[] }>(
      "SELECT request_id, api_key_id, user_id, user_email, fields FROM pii_reveals WHERE project_id = $1",
      [projectId],
    );
    expect(rows).toEqual([{ request_id: requestId, api_key_id: admin.id, user_id: null, user_email: null, fields: expect.arrayContaining(["request_body"]) }]);
  });

  it("Should refuse a pii_reveals row with no actor or with two", async () => {
    const { projectId, keyId } = await newProject();
    const insert = (user: string | null, key: string | null) =>
      sql(
        "INSERT INTO pii_reveals (id, project_id, request_id, user_id, user_email, api_key_id, fields) VALUES (gen_random_uuid(), $1, gen_random_uuid(), $2, $2, $3, '{}')",
        [projectId, user, key],
      );
    await expect(insert(null, null)).rejects.toThrow(/pii_reveals_one_actor/);
    await expect(insert("u@example.com", keyId)).rejects.toThrow(/pii_reveals_one_actor/);
    await insert("u@example.com", null);
    await insert(null, keyId);
  });
});

describe("Scopes of logging and reading", () => {
  it("Should refuse a read-only key on POST /internal/log and the proxy's key check (403), storing nothing", async () => {
    const { projectId } = await newProject();
    const { key } = await keyWith(projectId, ["read"]);
    await expectProblem(await postLog(key), 403, "this API key lacks the ingest scope");
    await expectProblem(await as(key, "/internal/keys/check"), 403, "this API key lacks the ingest scope");
    expect(await sql("SELECT 1 FROM llm_requests WHERE project_id = $1", [projectId])).toHaveLength(0);
    expect((await as(key, "/api/requests")).status).toBe(200);
  });

  it("Should drop a queued record (the proxy's path) whose key lacks the ingest scope, and store one whose key has it", async () => {
    const { projectId } = await newProject();
    const reader = await keyWith(projectId, ["read"]);
    const writer = await keyWith(projectId, ["ingest"]);
    const pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 1 });
    try {
      const db = drizzle({ client: pool }) as unknown as Db;
      const record = { ...(logBody() as unknown as LogRecord), metadata: {} };
      const entries = [
        { id: uuidv7(), keyHash: await hashKey(reader.key), record },
        { id: uuidv7(), keyHash: await hashKey(writer.key), record },
      ];
      const results = await ingestBatch(db, entries, DEFAULT_TIER_LIMITS, env.BODIES);
      expect(results.map((r) => r.outcome)).toEqual(["key", "stored"]);
    } finally {
      await pool.end();
    }
  });

  it("Should refuse an ingest-only key on GET /api/requests (403) and let it log", async () => {
    const { projectId } = await newProject();
    const { key } = await keyWith(projectId, ["ingest"]);
    await expectProblem(await as(key, "/api/requests"), 403, "this API key lacks the read scope");
    await expectProblem(await as(key, "/api/webhooks"), 403, "this API key lacks the read scope");
    expect((await postLog(key)).status).toBe(202);
    expect((await as(key, "/internal/keys/check")).status).toBe(200);
  });

  it("Should give a key made without scopes all three, and list and rotate keys with their scopes", async () => {
    const { projectId, keyId } = await newProject();
    const reader = await keyWith(projectId, ["read", "read", "ingest"]);
    expect(reader.scopes).toEqual(["ingest", "read"]);
    const list = (await (await api(`/internal/projects/${projectId}/keys`, { headers: internal })).json()) as { items: { id: string; scopes: string[] }[] };
    expect(Object.fromEntries(list.items.map((k) => [k.id, k.scopes]))).toEqual({ [keyId]: ["ingest", "read", "admin"], [reader.id]: ["ingest", "read"] });
    const rotated = await api(`/internal/projects/${projectId}/keys/${reader.id}/rotate`, { method: "POST", headers: internal });
    expect(rotated.status).toBe(201);
    expect(((await rotated.json()) as { key: { scopes: string[] } }).key.scopes).toEqual(["ingest", "read"]);
    // A rotation asked by someone who may not grant the key's scopes changes nothing.
    const refused = await api(`/internal/projects/${projectId}/keys/${keyId}/rotate`, {
      method: "POST",
      headers: internal,
      json: { grantable_scopes: ["ingest", "read"] },
    });
    await expectProblem(refused, 403, "admin scope");
    expect(await sql("SELECT expires_at FROM api_keys WHERE id = $1", [keyId])).toEqual([{ expires_at: null }]);
  });

  it("Should refuse an empty or unknown scope set (422)", async () => {
    const { projectId } = await newProject();
    for (const scopes of [[], ["write"]]) {
      const res = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "x", scopes } });
      await expectProblem(res, 422, "scopes");
    }
  });
});

describe("Webhook URLs", () => {
  it("Should show a key without admin each URL redacted to its origin, and an admin key whole", async () => {
    const { projectId } = await newProject();
    const slack = "https://hooks.slack.com/services/T000/B000/XXXXSECRET";
    await api(`/api/webhooks?project_id=${projectId}`, { method: "POST", headers: internal, json: { url: slack, format: "slack" } });
    await api(`/api/webhooks?project_id=${projectId}`, { method: "POST", headers: internal, json: { url: "https://alerts.example.com:8443/" } });
    const urls = async (key: string) => ((await (await as(key, "/api/webhooks")).json()) as { items: { url: string }[] }).items.map((e) => e.url);
    expect(await urls((await keyWith(projectId, ["read"])).key)).toEqual(["https://hooks.slack.com/…", "https://alerts.example.com:8443/"]);
    expect(await urls((await keyWith(projectId, ["read", "admin"])).key)).toEqual([slack, "https://alerts.example.com:8443/"]);
    const viaSecret = (await (await api(`/api/webhooks?project_id=${projectId}`, { headers: internal })).json()) as { items: { url: string }[] };
    expect(viaSecret.items[0]!.url).toBe(slack);
  });
});

describe("The scopes column", () => {
  it("Should refuse an unknown scope, an empty set and a null entry (CHECK)", async () => {
    const { keyId } = await newProject();
    for (const scopes of ["{bogus}", "{read,bogus}", "{}", "{NULL}"]) {
      await expect(sql("UPDATE api_keys SET scopes = $2::text[] WHERE id = $1", [keyId, scopes]), scopes).rejects.toThrow(/api_keys_scopes_known/);
    }
    await sql("UPDATE api_keys SET scopes = '{read}' WHERE id = $1", [keyId]);
  });

  it("Should map the creator's role to scopes as the backfill did (sightline_role_key_scopes)", async () => {
    const { projectId } = await newProject();
    const org = `org_${crypto.randomUUID()}`;
    await sql("INSERT INTO auth_organization (id, name, slug, created_at) VALUES ($1, 'o', $1, now())", [org]);
    await sql("INSERT INTO organization_projects (project_id, organization_id) VALUES ($1, $2)", [projectId, org]);
    const emails: Record<string, string> = {};
    for (const role of ["owner", "admin", "member", "viewer"]) {
      const id = `u_${crypto.randomUUID()}`;
      emails[role] = `${role}-${id}@example.com`;
      await sql("INSERT INTO auth_user (id, name, email) VALUES ($1, 'n', $2)", [id, emails[role]]);
      await sql("INSERT INTO auth_member (id, organization_id, user_id, role, created_at) VALUES ($1, $2, $1, $3, now())", [id, org, role]);
    }
    // A user who exists but belongs to no organisation owning the project: no longer a member.
    const gone = `gone-${crypto.randomUUID()}@example.com`;
    await sql("INSERT INTO auth_user (id, name, email) VALUES ($1, 'n', $2)", [`u_${crypto.randomUUID()}`, gone]);
    const scopesOf = async (createdBy: string | null) =>
      (await sql<{ s: string[] }>("SELECT sightline_role_key_scopes($1, $2) AS s", [projectId, createdBy]))[0]!.s;
    expect(await scopesOf(emails.owner!)).toEqual(["ingest", "read", "admin"]);
    expect(await scopesOf(emails.admin!.toUpperCase())).toEqual(["ingest", "read", "admin"]);
    expect(await scopesOf(emails.member!)).toEqual(["ingest", "read"]);
    expect(await scopesOf(emails.viewer!)).toEqual(["read"]);
    expect(await scopesOf(null)).toEqual(["ingest", "read", "admin"]);
    expect(await scopesOf(gone)).toEqual(["ingest", "read"]);
    expect(await scopesOf("never-signed-up@example.com")).toEqual(["ingest", "read"]);
  });
});

describe("Key administration with an empty JSON body (issue 32.9)", () => {
  it("Should answer 404 {detail} to rotating or revoking an unknown key with Content-Type: application/json and no body", async () => {
    const { projectId } = await newProject();
    for (const action of ["rotate", "revoke"]) {
      const res = await api(`/internal/projects/${projectId}/keys/${crypto.randomUUID()}/${action}`, {
        method: "POST",
        headers: { ...internal, "Content-Type": "application/json" },
        body: "",
      });
      expect(res.status, action).toBe(404);
      expect(await res.json(), action).toEqual({ detail: expect.stringContaining("not found") });
    }
  });
});
