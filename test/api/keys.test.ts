import { describe, expect, it } from "vitest";
import { api, internal, logBody, newProject, postLog, sql, expectProblem } from "./helpers";

const keyRoute = (projectId: string, keyId: string, action = "") => `/internal/projects/${projectId}/keys/${keyId}${action ? `/${action}` : ""}`;

describe("API key lifecycle", () => {
  it("Should return the full key once and store only its SHA-256", async () => {
    const { projectId, key, keyId } = await newProject();
    expect(key).toMatch(/^slk_[0-9a-f]{48}$/);
    const [row] = await sql("SELECT key_hash, key_hint FROM api_keys WHERE id = $1", [keyId]);
    const digest = Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))), (b) =>
      b.toString(16).padStart(2, "0"),
    ).join("");
    expect(row).toEqual({ key_hash: digest, key_hint: `${key.slice(0, 8)}…${key.slice(-4)}` });
    const list = await api(`/internal/projects/${projectId}/keys`, { headers: internal });
    const text = await list.text();
    expect(text).not.toContain(key);
    expect(JSON.parse(text).items).toHaveLength(1);
  });

  it("Should refuse a revoked key at once with 401", async () => {
    const { projectId, key, keyId } = await newProject();
    expect((await postLog(key)).status).toBe(202);
    const res = await api(keyRoute(projectId, keyId, "revoke"), { method: "POST", headers: internal });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { revoked_at: string | null }).revoked_at).not.toBeNull();
    const after = await postLog(key);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ detail: "API key has been revoked" });
    expect((await api("/api/requests", { headers: { "X-Service-Key": key } })).status).toBe(401);
  });

  it("Should keep a rotated key working for 60 seconds, then refuse it", async () => {
    const { projectId, key, keyId } = await newProject();
    const before = Date.now();
    const res = await api(keyRoute(projectId, keyId, "rotate"), { method: "POST", headers: internal });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { key: { key: string; id: string }; previous: { expires_at: string } };
    expect(body.key.key).toMatch(/^slk_[0-9a-f]{48}$/);
    expect(body.key.key).not.toBe(key);
    const expiresIn = new Date(body.previous.expires_at).getTime() - before;
    expect(expiresIn).toBeGreaterThan(55_000);
    expect(expiresIn).toBeLessThanOrEqual(61_000);

    // Inside the grace period both keys work.
    expect((await postLog(key)).status).toBe(202);
    expect((await postLog(body.key.key)).status).toBe(202);

    // Move the deadline into the past instead of waiting 60 s.
    await sql("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [keyId]);
    const expired = await postLog(key);
    await expectProblem(expired, 401, "expired");
    expect((await postLog(body.key.key)).status).toBe(202);
  });

  it("Should not rotate a revoked key", async () => {
    const { projectId, keyId } = await newProject();
    await api(keyRoute(projectId, keyId, "revoke"), { method: "POST", headers: internal });
    expect((await api(keyRoute(projectId, keyId, "rotate"), { method: "POST", headers: internal })).status).toBe(404);
  });

  it("Should delete a key for good", async () => {
    const { projectId, key, keyId } = await newProject();
    expect((await api(keyRoute(projectId, keyId), { method: "DELETE", headers: internal })).status).toBe(204);
    expect((await postLog(key)).status).toBe(401);
    expect((await api(keyRoute(projectId, keyId), { method: "DELETE", headers: internal })).status).toBe(404);
  });

  it("Should let a project hold several keys for the same data", async () => {
    const { projectId, key } = await newProject();
    const second = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "staging" } });
    const { key: key2 } = (await second.json()) as { key: string };
    await postLog(key);
    const list = await api("/api/requests", { headers: { "X-Service-Key": key2 } });
    expect(((await list.json()) as { total: number }).total).toBe(1);
  });

  it("Should not let one project manage another project's key", async () => {
    const a = await newProject();
    const b = await newProject();
    for (const [method, action] of [
      ["POST", "revoke"],
      ["POST", "rotate"],
      ["DELETE", ""],
    ] as const) {
      const res = await api(keyRoute(b.projectId, a.keyId, action), { method, headers: internal });
      expect(res.status).toBe(404);
    }
    expect((await postLog(a.key)).status).toBe(202);
  });

  it("Should answer 404 when creating a key for an unknown project", async () => {
    const res = await api(`/internal/projects/${crypto.randomUUID()}/keys`, { method: "POST", headers: internal, json: {} });
    expect(res.status).toBe(404);
  });
});

describe("Internal secret", () => {
  it("Should not authorize - missing secret", async () => {
    const res = await api("/internal/projects", { method: "POST", json: { name: "x" } });
    await expectProblem(res, 401, "X-Internal-Secret");
  });

  it("Should not authorize - wrong secret, even of the right length", async () => {
    const res = await api("/internal/projects", { headers: { "X-Internal-Secret": "f".repeat(64) } });
    expect(res.status).toBe(401);
  });

  it("Should not accept an API key on the administration routes", async () => {
    const { key } = await newProject();
    const res = await api("/internal/projects", { headers: { "X-Service-Key": key } });
    expect(res.status).toBe(401);
  });

  it("Should read a named project's data with the internal secret", async () => {
    const { projectId, key } = await newProject();
    await postLog(key, logBody({ model: "m-internal" }));
    const res = await api(`/api/requests?project_id=${projectId}`, { headers: internal });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: { model: string }[] }).items.map((i) => i.model)).toEqual(["m-internal"]);
    const missing = await api("/api/requests", { headers: internal });
    expect(missing.status).toBe(422);
  });
});

describe("GET /internal/keys/check (the capture proxy's key check)", () => {
  const check = (key: string, header = "X-Service-Key") =>
    api("/internal/keys/check", { headers: { [header]: header === "Authorization" ? `Bearer ${key}` : key } });

  it("Should answer 200 with the project for a live key", async () => {
    const { projectId, key } = await newProject();
    const res = await check(key);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ project_id: projectId });
    expect((await check(key, "Authorization")).status).toBe(200);
  });

  it("Should answer 401 {detail} for an unknown well-formed key and a malformed one", async () => {
    for (const key of [`slk_${"0".repeat(48)}`, "slk_short", ""]) {
      const res = await check(key);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ detail: expect.any(String) });
    }
  });

  it("Should answer 401 for a revoked key at once", async () => {
    const { projectId, key, keyId } = await newProject();
    expect((await check(key)).status).toBe(200);
    await api(keyRoute(projectId, keyId, "revoke"), { method: "POST", headers: internal });
    const res = await check(key);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ detail: "API key has been revoked" });
  });

  it("Should accept a rotated key during its grace period and refuse it after", async () => {
    const { projectId, key, keyId } = await newProject();
    const rotated = await api(keyRoute(projectId, keyId, "rotate"), { method: "POST", headers: internal });
    const { key: fresh } = ((await rotated.json()) as { key: { key: string } }).key;
    expect((await check(key)).status).toBe(200);
    expect((await check(fresh)).status).toBe(200);
    await sql("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [keyId]);
    const res = await check(key);
    await expectProblem(res, 401, "expired");
    expect((await check(fresh)).status).toBe(200);
  });

  it("Should not accept the internal secret in place of a key", async () => {
    const { projectId } = await newProject();
    const res = await api(`/internal/keys/check?project_id=${projectId}`, { headers: internal });
    expect(res.status).toBe(401);
  });
});
