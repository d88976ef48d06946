/**
 * Issue 25.1 and 25.6: projects created, renamed and deleted from the dashboard (owner/admin),
 * written only by the API, the project and its organisation link in one transaction there; and
 * the local demo organisation adopted by the first account.
 */
import { describe, expect, it } from "vitest";
import { api, internal, sql } from "../../../test/api/helpers";
import { useDirectDb } from "../../../test/api/direct-db";
import { adoptDemoOrganization, createDemoOrganization } from "../../../src/accounts/demo";
import type { Project } from "../../server/contract";
import { dash, newUserAs, projectsOf, signUp } from "./helpers";

const detail = async (res: Response) => ((await res.json()) as { detail: string }).detail;

describe("Projects in the dashboard", () => {
  it("Should create, rename and delete a project as the owner, with the organisation's members seeing each step", async () => {
    const owner = await signUp();
    const [first] = await projectsOf(owner);
    const viewer = await newUserAs(owner, first!.organization_id, "viewer");
    const created = await dash("/api/projects", { cookie: owner.cookie, json: { name: "  Second  ", organization_id: first!.organization_id } });
    expect(created.status).toBe(201);
    const project = (await created.json()) as Project;
    expect(project).toMatchObject({ name: "Second", organization_id: first!.organization_id, role: "owner" });
    expect((await projectsOf(viewer)).map((p) => p.name)).toEqual([first!.name, "Second"]);
    // The API wrote the subscription with the project.
    expect(await sql("SELECT tier FROM subscriptions WHERE project_id = $1", [project.id])).toEqual([{ tier: "free" }]);

    const renamed = await dash(`/api/projects/${project.id}`, { method: "PATCH", cookie: owner.cookie, json: { name: "Renamed" } });
    expect(renamed.status).toBe(200);
    expect(((await renamed.json()) as Project).name).toBe("Renamed");
    expect((await projectsOf(viewer)).map((p) => p.name)).toContain("Renamed");

    const deleted = await dash(`/api/projects/${project.id}`, { method: "DELETE", cookie: owner.cookie });
    expect(deleted.status).toBe(204);
    expect((await projectsOf(owner)).map((p) => p.id)).toEqual([first!.id]);
    expect(await sql("SELECT 1 FROM projects WHERE id = $1 UNION ALL SELECT 1 FROM organization_projects WHERE project_id = $1", [project.id])).toEqual([]);
    expect((await dash(`/api/projects/${project.id}`, { method: "DELETE", cookie: owner.cookie })).status).toBe(404);
  });

  it("Should refuse members and viewers (403), strangers (404), and bad input (422 naming the field)", async () => {
    const owner = await signUp();
    const [project] = await projectsOf(owner);
    const org = project!.organization_id;
    for (const role of ["member", "viewer"] as const) {
      const user = await newUserAs(owner, org, role);
      expect((await dash("/api/projects", { cookie: user.cookie, json: { name: "x", organization_id: org } })).status).toBe(403);
      expect((await dash(`/api/projects/${project!.id}`, { method: "PATCH", cookie: user.cookie, json: { name: "x" } })).status).toBe(403);
      expect((await dash(`/api/projects/${project!.id}`, { method: "DELETE", cookie: user.cookie })).status).toBe(403);
    }
    const stranger = await signUp();
    expect((await dash("/api/projects", { cookie: stranger.cookie, json: { name: "x", organization_id: org } })).status).toBe(404);
    expect((await dash(`/api/projects/${project!.id}`, { method: "DELETE", cookie: stranger.cookie })).status).toBe(404);

    const long = await dash(`/api/projects/${project!.id}`, { method: "PATCH", cookie: owner.cookie, json: { name: "n".repeat(201) } });
    expect(long.status).toBe(422);
    expect(await detail(long)).toMatch(/^name: /);
    const blank = await dash("/api/projects", { cookie: owner.cookie, json: { name: "   ", organization_id: org } });
    expect(blank.status).toBe(422);
    expect(await detail(blank)).toMatch(/^name: /);
    expect((await projectsOf(owner)).map((p) => p.name)).toEqual([project!.name]);
  });

  it("Should keep a project whose paid subscription still bills (409) and delete it once cancelled", async () => {
    const owner = await signUp();
    const [first] = await projectsOf(owner);
    const created = await dash("/api/projects", { cookie: owner.cookie, json: { name: "Paid", organization_id: first!.organization_id } });
    const { id } = (await created.json()) as Project;
    await sql("UPDATE subscriptions SET tier = 'pro', status = 'active', payment_subscription_id = $2 WHERE project_id = $1", [id, `sub_${id}`]);
    const refused = await dash(`/api/projects/${id}`, { method: "DELETE", cookie: owner.cookie });
    expect(refused.status).toBe(409);
    expect(await detail(refused)).toContain("cancel it in the billing portal first");
    expect((await projectsOf(owner)).map((p) => p.id)).toContain(id);
    await sql("UPDATE subscriptions SET status = 'canceled' WHERE project_id = $1", [id]);
    expect((await dash(`/api/projects/${id}`, { method: "DELETE", cookie: owner.cookie })).status).toBe(204);
  });

  it("Should leave no project behind when the API cannot attach it to the organisation (one transaction)", async () => {
    const [{ n: before }] = (await sql<{ n: string }>("SELECT count(*) AS n FROM projects")) as [{ n: string }];
    const res = await api("/internal/projects", { method: "POST", headers: internal, json: { name: "orphan", organization_id: "no-such-organisation" } });
    expect(res.status).toBe(404);
    expect(await detail(res)).toBe("organisation not found");
    expect(await sql("SELECT 1 FROM projects WHERE name = 'orphan'")).toEqual([]);
    const [{ n: after }] = (await sql<{ n: string }>("SELECT count(*) AS n FROM projects")) as [{ n: string }];
    expect(Number(after)).toBeGreaterThanOrEqual(Number(before));
  });
});

describe("The local demo project", () => {
  // Dev seeding's step (scripts/lib/stack.ts) on Better Auth's tables, through a direct handle.
  const direct = useDirectDb();

  it("Should be adopted by exactly one of two accounts signing up at once, who then sees it", async () => {
    const slug = `demo-${crypto.randomUUID()}`;
    const orgId = await createDemoOrganization(direct.db, new Date(), slug);
    const created = await api("/internal/projects", { method: "POST", headers: internal, json: { name: "Demo", organization_id: orgId } });
    expect(created.status).toBe(201);
    const { id: demoId } = (await created.json()) as { id: string };
    const [a, b] = await Promise.all([signUp(), signUp()]);
    const claims = await Promise.all([adoptDemoOrganization(direct.db, a.userId, slug), adoptDemoOrganization(direct.db, b.userId, slug)]);
    expect(claims.filter((c) => c === orgId)).toHaveLength(1);
    expect(claims.filter((c) => c === null)).toHaveLength(1);
    const winner = claims[0] ? a : b;
    const loser = claims[0] ? b : a;
    const seen = await projectsOf(winner);
    expect(seen).toEqual([expect.objectContaining({ id: demoId, name: "Demo", role: "owner" })]);
    expect((await projectsOf(loser)).map((p) => p.id)).not.toContain(demoId);
  });
});
