/**
 * The dashboard's /api/projects/:projectId/policy routes (docs/policy.md): a session is needed,
 * viewers read, admins replace, the API's 422 naming the field reaches the browser as it is,
 * another organisation's project is not found (test/api/policy.test.ts covers the API side).
 */
import { describe, expect, it } from "vitest";
import { dash, newUserAs, ownerWithProject, signUp } from "./helpers";

describe("Policy through the dashboard server", () => {
  it("Should let an admin replace the policy, a viewer only read it, and pass the API's refusals through", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/policy`;
    expect((await dash(base)).status).toBe(401);

    const put = await dash(base, { method: "PUT", cookie: owner.cookie, json: { scorers: { content_safety: { unsafe_at: 5 } }, store_pii: "mask" } });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { version: number }).version).toBe(1);

    const viewer = await newUserAs(owner, project.organization_id, "viewer");
    const read = await dash(base, { cookie: viewer.cookie });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { store_pii: string; scorers: Record<string, { unsafe_at: number }> }).scorers.content_safety!.unsafe_at).toBe(5);
    expect((await dash(base, { method: "PUT", cookie: viewer.cookie, json: { store_pii: "keep" } })).status).toBe(403);

    const bad = await dash(base, { method: "PUT", cookie: owner.cookie, json: { scorers: { toxicity: {} } } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^scorers: /);

    const stranger = await signUp("Stranger");
    expect((await dash(base, { cookie: stranger.cookie })).status).toBe(404);
  });
});
