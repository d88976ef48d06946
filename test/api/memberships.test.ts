/**
 * Issue 35.1, one owner per table: the dashboard server asks the API, behind the internal
 * secret, which projects a signed-in user may open and with which role
 * (/internal/users/{user_id}/...). Users, organisations and memberships are arranged as Better
 * Auth writes them (rows of its tables); projects and their organisation links through the
 * API's own /internal/projects.
 */
import { describe, expect, it } from "vitest";
import { api, expectProblem, internal } from "./helpers";
import { sql } from "../setup/sql";

/** A Better Auth organisation named `name` (its id returned), as the dashboard server writes it. */
async function organization(name: string): Promise<string> {
  const id = `org_${crypto.randomUUID()}`;
  await sql("INSERT INTO auth_organization (id, name, slug, created_at) VALUES ($1, $2, $1, now())", [id, name]);
  return id;
}

/** A Better Auth user (their id returned), member of each organisation with the role given. */
async function user(memberships: Record<string, string> = {}): Promise<string> {
  const id = `u_${crypto.randomUUID()}`;
  await sql("INSERT INTO auth_user (id, name, email) VALUES ($1, 'n', $2)", [id, `${id}@example.com`]);
  for (const [org, role] of Object.entries(memberships)) {
    await sql("INSERT INTO auth_member (id, organization_id, user_id, role, created_at) VALUES ($1, $2, $3, $4, now())", [
      `m_${crypto.randomUUID()}`,
      org,
      id,
      role,
    ]);
  }
  return id;
}

/** A project of `organizationId`, created through the API; its id. */
async function projectOf(organizationId: string, name: string): Promise<string> {
  const res = await api("/internal/projects", { method: "POST", headers: internal, json: { name, organization_id: organizationId } });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const get = (path: string) => api(path, { headers: internal });

describe("Memberships for the dashboard server (/internal/users)", () => {
  it("Should list the projects of every organisation of the user, oldest first, with the organisation and the user's role", async () => {
    const [mine, shared, foreign] = [await organization("Mine"), await organization("Shared"), await organization("Foreign")];
    const u = await user({ [mine]: "owner", [shared]: "viewer" });
    const first = await projectOf(mine, "first");
    const second = await projectOf(shared, "second");
    await projectOf(foreign, "not theirs");
    const res = await get(`/internal/users/${u}/projects`);
    expect(res.status).toBe(200);
    const { items } = (await res.json()) as { items: Record<string, unknown>[] };
    expect(items).toEqual([
      { id: first, name: "first", created_at: expect.any(String), organization_id: mine, organization_name: "Mine", role: "owner" },
      { id: second, name: "second", created_at: expect.any(String), organization_id: shared, organization_name: "Shared", role: "viewer" },
    ]);
    expect(Date.parse(items[0]!.created_at as string)).toBeLessThanOrEqual(Date.parse(items[1]!.created_at as string));
    // A user of no organisation (or an unknown id) has none.
    expect(await (await get(`/internal/users/${await user()}/projects`)).json()).toEqual({ items: [] });
    expect(await (await get("/internal/users/nobody/projects")).json()).toEqual({ items: [] });
  });

  it("Should answer one project with the user's role, and 404 for another organisation's project or an unknown one", async () => {
    const [mine, foreign] = [await organization("Mine"), await organization("Foreign")];
    const u = await user({ [mine]: "member" });
    const own = await projectOf(mine, "own");
    const other = await projectOf(foreign, "other");
    const res = await get(`/internal/users/${u}/projects/${own}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: own, name: "own", organization_id: mine, organization_name: "Mine", role: "member" });
    await expectProblem(await get(`/internal/users/${u}/projects/${other}`), 404, "project not found");
    await expectProblem(await get(`/internal/users/${u}/projects/${crypto.randomUUID()}`), 404, "project not found");
    // Membership follows the organisation: once the user leaves it, the project is gone for them.
    await sql("DELETE FROM auth_member WHERE user_id = $1", [u]);
    await expectProblem(await get(`/internal/users/${u}/projects/${own}`), 404, "project not found");
  });

  it("Should answer the user's role in an organisation, and 404 for an organisation they are no member of", async () => {
    const [mine, foreign] = [await organization("Mine"), await organization("Foreign")];
    const u = await user({ [mine]: "admin" });
    const res = await get(`/internal/users/${u}/organizations/${mine}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ organization_id: mine, role: "admin" });
    await expectProblem(await get(`/internal/users/${u}/organizations/${foreign}`), 404, "organisation not found");
    await expectProblem(await get(`/internal/users/${u}/organizations/no-such-organisation`), 404, "organisation not found");
  });

  it("Should refuse malformed ids with 422 naming the parameter, and callers without the internal secret with 401", async () => {
    const u = await user();
    await expectProblem(await get(`/internal/users/${u}/projects/not-a-uuid`), 422, "project_id");
    await expectProblem(await get(`/internal/users/${"x".repeat(256)}/projects`), 422, "user_id");
    await expectProblem(await get(`/internal/users/${u}/organizations/${"x".repeat(256)}`), 422, "organization_id");
    await expectProblem(await api(`/internal/users/${u}/projects`), 401, "X-Internal-Secret");
    await expectProblem(await api(`/internal/users/${u}/projects`, { headers: { "X-Internal-Secret": "wrong" } }), 401, "");
  });
});
