/**
 * The dashboard's request views: forwarded to the real API worker with the caller's project,
 * role-guarded, and the review verdict recorded with the signed-in user's email.
 */
import { describe, expect, it } from "vitest";
import { logBody, postLog, sql } from "../../../test/api/helpers";
import { dash, newUserAs, projectsOf, signUp } from "./helpers";

type NewKey = { key: string };

async function projectWithCalls() {
  const owner = await signUp();
  const [project] = await projectsOf(owner);
  const { key } = (await (await dash(`/api/projects/${project!.id}/keys`, { cookie: owner.cookie, json: { name: "ci" } })).json()) as NewKey;
  const ids: string[] = [];
  for (const [i, provider] of ["openai", "anthropic", "openai"].entries()) {
    const res = await postLog(key, logBody({ provider, created_at: new Date(Date.UTC(2026, 9, 1, 0, i)).toISOString() }));
    ids.push(((await res.json()) as { id: string }).id);
  }
  return { owner, project: project!, ids };
}

describe("Dashboard request routes", () => {
  it("Should list, count, show and export the project's calls with the filters passed through", async () => {
    const { owner, project, ids } = await projectWithCalls();
    const base = `/api/projects/${project.id}`;
    const page = (await (await dash(`${base}/requests?limit=2`, { cookie: owner.cookie })).json()) as { items: { id: string }[]; next_cursor: string };
    expect(page.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    const next = (await (await dash(`${base}/requests?limit=2&cursor=${page.next_cursor}`, { cookie: owner.cookie })).json()) as { items: { id: string }[] };
    expect(next.items.map((r) => r.id)).toEqual([ids[0]]);
    expect(await (await dash(`${base}/requests/count?provider=anthropic`, { cookie: owner.cookie })).json()).toEqual({ total: 1 });
    const detail = (await (await dash(`${base}/requests/${ids[1]}?neighbours=true`, { cookie: owner.cookie })).json()) as { neighbours: unknown };
    expect(detail.neighbours).toEqual({ newer_id: ids[2], older_id: ids[0] });
    const exported = await dash(`${base}/requests/export?format=jsonl&provider=openai`, { cookie: owner.cookie });
    expect(exported.headers.get("content-type")).toContain("application/x-ndjson");
    expect(
      new TextDecoder()
        .decode(await exported.arrayBuffer())
        .trim()
        .split("\n"),
    ).toHaveLength(2);
    const bad = await dash(`${base}/requests?min_score=9`, { cookie: owner.cookie });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: string }).detail).toContain("min_score");
  });

  it("Should not let another user read the project, nor pass a project_id of their own", async () => {
    const { project } = await projectWithCalls();
    const other = await signUp();
    const [own] = await projectsOf(other);
    expect((await dash(`/api/projects/${project.id}/requests`, { cookie: other.cookie })).status).toBe(404);
    // A project_id in the query is dropped: the path's project (the caller's own, empty) is read.
    const res = (await (await dash(`/api/projects/${own!.id}/requests?limit=5&project_id=${project.id}`, { cookie: other.cookie })).json()) as {
      items: unknown[];
    };
    expect(res.items).toEqual([]);
    expect((await dash(`/api/projects/${project.id}/requests/export`, { cookie: other.cookie })).status).toBe(404);
  });

  it("Should mask PII in the detail by default and reveal it to an admin only", async () => {
    const { owner, project } = await projectWithCalls();
    const { key } = (await (await dash(`/api/projects/${project.id}/keys`, { cookie: owner.cookie, json: { name: "pii" } })).json()) as NewKey;
    const res = await postLog(key, logBody({ request_body: { messages: [{ role: "user", content: "mail me at jane.doe@example.com" }] } }));
    const { id } = (await res.json()) as { id: string };
    const path = `/api/projects/${project.id}/requests/${id}`;
    const masked = (await (await dash(path, { cookie: owner.cookie })).json()) as { request_body: unknown; pii_masked: boolean };
    expect(masked.pii_masked).toBe(true);
    expect(JSON.stringify(masked.request_body)).toContain("mail me at [EMAIL]");
    expect(JSON.stringify(masked.request_body)).not.toContain("jane.doe");
    const viewer = await newUserAs(owner, project.organization_id, "viewer");
    expect((await dash(`${path}?reveal=true`, { cookie: viewer.cookie })).status).toBe(403);
    const revealed = (await (await dash(`${path}?reveal=true`, { cookie: owner.cookie })).json()) as { request_body: unknown; pii_masked: boolean };
    expect(revealed.pii_masked).toBe(false);
    expect(JSON.stringify(revealed.request_body)).toContain("jane.doe@example.com");
  });

  it("Should record a member's verdict with their email, and refuse a viewer (403)", async () => {
    const { owner, project, ids } = await projectWithCalls();
    await sql(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
       SELECT gen_random_uuid(), $1, $2, 'content_safety', 5, 'unsafe', 'test', created_at FROM llm_requests WHERE id = $1`,
      [ids[0], project.id],
    );
    const [score] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE request_id = $1", [ids[0]]);
    const viewer = await newUserAs(owner, project.organization_id, "viewer");
    const path = `/api/projects/${project.id}/safety-scores/${score!.id}/review`;
    expect((await dash(path, { cookie: viewer.cookie, json: { verdict: "false_positive" } })).status).toBe(403);
    const res = await dash(path, { cookie: owner.cookie, json: { verdict: "false_positive", reviewer: "someone-else" } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ verdict: "false_positive", reviewer: owner.email });
    const fp = (await (await dash(`/api/projects/${project.id}/requests?limit=10&reviewed=false_positive`, { cookie: viewer.cookie })).json()) as {
      items: { id: string }[];
    };
    expect(fp.items.map((r) => r.id)).toEqual([ids[0]]);
  });

  it("Should stream the reviewed calls as masked JSONL to a viewer, whatever the role", async () => {
    const { owner, project } = await projectWithCalls();
    const { key } = (await (await dash(`/api/projects/${project.id}/keys`, { cookie: owner.cookie, json: { name: "pii" } })).json()) as NewKey;
    const res = await postLog(key, logBody({ request_body: { messages: [{ role: "user", content: "mail me at jane.doe@example.com" }] } }));
    const { id } = (await res.json()) as { id: string };
    await sql(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
       SELECT gen_random_uuid(), $1, $2, 'pii_detection', 5, 'unsafe', 'test', created_at FROM llm_requests WHERE id = $1`,
      [id, project.id],
    );
    const [score] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE request_id = $1", [id]);
    expect((await dash(`/api/projects/${project.id}/safety-scores/${score!.id}/review`, { cookie: owner.cookie, json: { verdict: "confirmed" } })).status).toBe(
      200,
    );
    const viewer = await newUserAs(owner, project.organization_id, "viewer");
    for (const who of [viewer, owner]) {
      const exported = await dash(`/api/projects/${project.id}/reviews/export?scorer=pii_detection&reveal=true`, { cookie: who.cookie });
      expect(exported.status).toBe(200);
      expect(exported.headers.get("Content-Disposition")).toMatch(/^attachment; filename="reviewed-/);
      const lines = (await exported.text()).trim().split("\n");
      expect(lines).toHaveLength(1);
      const item = JSON.parse(lines[0]!) as { id: string; expected: Record<string, string>; request_body: unknown };
      expect(item).toMatchObject({ id, expected: { pii_detection: "unsafe" } });
      expect(JSON.stringify(item.request_body)).toContain("mail me at [EMAIL]");
    }
  });
});
