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

  it("Should let an admin start a re-score, anyone read its progress and the calibration, and refuse a member (403)", async () => {
    const { owner, project } = await ownerWithProject();
    const base = `/api/projects/${project.id}/policy`;
    const member = await newUserAs(owner, project.organization_id, "member");
    const range = { since: new Date(Date.now() - 86_400_000).toISOString(), until: new Date().toISOString() };
    expect((await dash(`${base}/rescore`, { method: "POST", cookie: member.cookie, json: range })).status).toBe(403);
    const bad = await dash(`${base}/rescore`, { method: "POST", cookie: owner.cookie, json: { since: range.until, until: range.since } });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toMatch(/^since: /);
    const started = await dash(`${base}/rescore`, { method: "POST", cookie: owner.cookie, json: range });
    expect(started.status).toBe(202);
    const job = (await started.json()) as { id: string; state: string; total: number; done: number };
    expect(job).toMatchObject({ state: "running", total: 0, done: 0 });
    const read = await dash(`${base}/rescore/${job.id}`, { cookie: member.cookie });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: string }).id).toBe(job.id);
    expect((await dash(`${base}/rescore/not-a-job`, { cookie: member.cookie })).status).toBe(404);
    const calibration = await dash(`${base}/calibration`, { cookie: member.cookie });
    expect(calibration.status).toBe(200);
    const body = (await calibration.json()) as { scorers: { confirmed: number; thresholds: { unsafe_at: number }[] }[] };
    expect(body.scorers).toHaveLength(6);
    expect(body.scorers[0]!.thresholds.map((t) => t.unsafe_at)).toEqual([2, 3, 4, 5]);
  });
});
