/**
 * The dashboard's /api/projects/:projectId/webhooks routes: a session is needed, viewers and
 * members read, admins manage, another organisation's project is not found; the API's own
 * validation and SSRF refusal reach the browser as they are (test/api/webhooks.test.ts covers
 * the API side).
 */
import { describe, expect, it } from "vitest";
import { dash, newUserAs, ownerWithProject, signUp } from "./helpers";

type Created = { id: string; secret: string; url: string };

describe("Webhooks through the dashboard server", () => {
  it("Should let an admin create (secret once), a viewer only read, and refuse without a session or across organisations", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/webhooks`;
    expect((await dash(base)).status).toBe(401);

    const res = await dash(base, { cookie: owner.cookie, json: { url: "https://hooks.example.com/dash", min_score: 5 } });
    expect(res.status).toBe(201);
    const created = (await res.json()) as Created;
    expect(created.secret).toMatch(/^whsec_/);

    const viewer = await newUserAs(owner, project.organization_id, "viewer");
    const listed = await dash(base, { cookie: viewer.cookie });
    expect(listed.status).toBe(200);
    const text = await listed.text();
    // Viewers read where alerts go, not the URL's path (issue 32.7: the path may be the credential).
    expect(text).toContain("https://hooks.example.com/…");
    expect(text).not.toContain("/dash");
    expect(text).not.toContain(created.secret);
    expect((await dash(`${base}/${created.id}/deliveries`, { cookie: viewer.cookie })).status).toBe(200);
    const member = await newUserAs(owner, project.organization_id, "member");
    expect((await dash(base, { cookie: member.cookie, json: { url: "https://hooks.example.com/x" } })).status).toBe(403);
    expect((await dash(`${base}/${created.id}`, { cookie: viewer.cookie, method: "DELETE" })).status).toBe(403);

    const stranger = await signUp("Stranger");
    expect((await dash(base, { cookie: stranger.cookie })).status).toBe(404);
    expect((await dash(`${base}/${created.id}`, { cookie: owner.cookie, method: "DELETE" })).status).toBe(204);
    expect((await dash(`${base}/${created.id}/deliveries`, { cookie: owner.cookie })).status).toBe(404);
  });

  it("Should pass the API's refusals on: a private address (422 naming url) and an unknown endpoint (404)", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/webhooks`;
    const refused = await dash(base, { cookie: owner.cookie, json: { url: "https://192.168.0.10/hook" } });
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/^url: /);
    expect((await dash(`${base}/${crypto.randomUUID()}/test`, { cookie: owner.cookie, json: {} })).status).toBe(404);
    expect((await dash(`${base}/not-a-uuid/deliveries`, { cookie: owner.cookie })).status).toBe(404);
  });
});
