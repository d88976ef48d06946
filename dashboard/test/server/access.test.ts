import { describe, expect, it } from "vitest";
import { postLog } from "../../../test/api/helpers";
import { dash, newUserAs, projectsOf, signUp } from "./helpers";

type NewKey = { id: string; key: string; key_hint: string; created_by: string };

describe("Access to a project's keys and billing", () => {
  it("Should refuse every project route without a session (401)", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const id = project!.id;
    for (const [method, path, json] of [
      ["GET", "/api/projects", undefined],
      ["GET", `/api/projects/${id}/keys`, undefined],
      ["POST", `/api/projects/${id}/keys`, { name: "x" }],
      ["GET", `/api/projects/${id}/billing`, undefined],
      ["POST", `/api/projects/${id}/billing/checkout`, { tier: "pro" }],
      ["GET", `/api/projects/${id}/activity`, undefined],
    ] as const) {
      const res = await dash(path, { method, json });
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(await res.json()).toEqual({ detail: "sign in first" });
    }
  });

  it("Should not show or touch another organisation's project (404, as if it did not exist)", async () => {
    const alice = await signUp("Alice");
    const bob = await signUp("Bob");
    const [aliceProject] = await projectsOf(alice);
    const bobProjects = await projectsOf(bob);
    expect(bobProjects.map((p) => p.id)).not.toContain(aliceProject!.id);
    const created = (await (await dash(`/api/projects/${aliceProject!.id}/keys`, { cookie: alice.cookie, json: { name: "prod" } })).json()) as NewKey;
    for (const [method, path, json] of [
      ["GET", `/api/projects/${aliceProject!.id}/keys`, undefined],
      ["POST", `/api/projects/${aliceProject!.id}/keys`, { name: "stolen" }],
      ["POST", `/api/projects/${aliceProject!.id}/keys/${created.id}/revoke`, {}],
      ["DELETE", `/api/projects/${aliceProject!.id}/keys/${created.id}`, undefined],
      ["GET", `/api/projects/${aliceProject!.id}/billing`, undefined],
      ["POST", `/api/projects/${aliceProject!.id}/billing/portal`, {}],
    ] as const) {
      const res = await dash(path, { method, json, cookie: bob.cookie });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(await res.text()).not.toContain(created.key_hint);
    }
    // Bob's own project id with Alice's key id does not reach Alice's key either.
    const cross = await dash(`/api/projects/${bobProjects[0]!.id}/keys/${created.id}/revoke`, { cookie: bob.cookie, json: {} });
    expect(cross.status).toBe(404);
    expect((await postLog(created.key)).status).toBe(202);
  });

  it("Should let a viewer read keys but not create, rotate, revoke or delete them (403)", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const viewer = await newUserAs(owner, project!.organization_id, "viewer");
    const seen = await projectsOf(viewer);
    expect(seen.find((p) => p.id === project!.id)?.role).toBe("viewer");
    const key = (await (await dash(`/api/projects/${project!.id}/keys`, { cookie: owner.cookie, json: { name: "prod" } })).json()) as NewKey;

    const list = await dash(`/api/projects/${project!.id}/keys`, { cookie: viewer.cookie });
    expect(list.status).toBe(200);
    const listed = await list.text();
    expect(listed).toContain(key.key_hint);
    expect(listed).not.toContain(key.key);
    for (const [method, path, json] of [
      ["POST", `/api/projects/${project!.id}/keys`, { name: "mine" }],
      ["POST", `/api/projects/${project!.id}/keys/${key.id}/rotate`, {}],
      ["POST", `/api/projects/${project!.id}/keys/${key.id}/revoke`, {}],
      ["DELETE", `/api/projects/${project!.id}/keys/${key.id}`, undefined],
      ["POST", `/api/projects/${project!.id}/billing/checkout`, { tier: "pro" }],
    ] as const) {
      const res = await dash(path, { method, json, cookie: viewer.cookie });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as { detail: string }).detail).toContain("yours is viewer");
    }
    expect((await postLog(key.key)).status).toBe(202);
  });

  it("Should let a member create and rotate keys but leave revoke and delete to admins", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const member = await newUserAs(owner, project!.organization_id, "member");
    const created = await dash(`/api/projects/${project!.id}/keys`, { cookie: member.cookie, json: { name: "ci" } });
    expect(created.status).toBe(201);
    const key = (await created.json()) as NewKey;
    expect(key.created_by).toBe(member.email);
    expect((await dash(`/api/projects/${project!.id}/keys/${key.id}/revoke`, { cookie: member.cookie, json: {} })).status).toBe(403);
    const revoked = await dash(`/api/projects/${project!.id}/keys/${key.id}/revoke`, { cookie: owner.cookie, json: {} });
    expect(revoked.status).toBe(200);
    expect((await postLog(key.key)).status).toBe(401);
  });

  it("Should refuse cross-site form, text/plain and bodiless writes (CSRF) and keep the data unchanged", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const path = `/api/projects/${project!.id}/keys`;
    const key = (await (await dash(path, { cookie: owner.cookie, json: { name: "kept" } })).json()) as NewKey;
    const form = await dash(path, {
      cookie: owner.cookie,
      json: { name: "csrf" },
      headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(form.status).toBe(403);
    const plain = await dash(path, { cookie: owner.cookie, json: { name: "csrf" }, headers: { "Content-Type": "text/plain" } });
    expect(plain.status).toBe(415);
    // A no-cors fetch may POST with no body and no Content-Type (a "simple" request): refused.
    const bare = await dash(`${path}/${key.id}/revoke`, { method: "POST", cookie: owner.cookie, headers: { Origin: "https://evil.example" } });
    expect(bare.status).toBe(403);
    const keys = (await (await dash(path, { cookie: owner.cookie })).json()) as { items: { name: string; revoked_at: string | null }[] };
    expect(keys.items.map((k) => [k.name, k.revoked_at])).toEqual([["kept", null]]);
    expect((await postLog(key.key)).status).toBe(202);
  });

  it("Should never send the internal secret to the browser", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const { env } = await import("cloudflare:test");
    const secret = (env as unknown as { INTERNAL_API_SECRET: string }).INTERNAL_API_SECRET;
    for (const path of [
      "/api/projects",
      `/api/projects/${project!.id}/keys`,
      `/api/projects/${project!.id}/billing`,
      `/api/projects/${project!.id}/activity`,
    ]) {
      const res = await dash(path, { cookie: owner.cookie });
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain(secret);
    }
  });
});

describe("Billing through the dashboard", () => {
  it("Should show a new project's free tier and open Stripe Checkout for an admin", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const sub = (await (await dash(`/api/projects/${project!.id}/billing`, { cookie: owner.cookie })).json()) as { tier: string; limit: number };
    expect(sub.tier).toBe("free");
    expect(sub.limit).toBe(50); // TIER_LIMITS of the test config
    const checkout = await dash(`/api/projects/${project!.id}/billing/checkout`, { cookie: owner.cookie, json: { tier: "pro" } });
    expect(checkout.status).toBe(200);
    expect(((await checkout.json()) as { url: string }).url).toMatch(/^https?:\/\//);
    const bad = await dash(`/api/projects/${project!.id}/billing/checkout`, { cookie: owner.cookie, json: { tier: "gold" } });
    expect(bad.status).toBe(422);
  });
});
