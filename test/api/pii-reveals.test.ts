/**
 * Issue 35.1, one owner per table: the reveal audit (`pii_reveals`) and the search check are the
 * API's, asked by the dashboard server over /internal: a user's reveal is recorded with the
 * stored-text fields and listed newest first (per request too); a text filter holding personal
 * data is named, judged as PostgreSQL searches it.
 */
import { describe, expect, it } from "vitest";
import { STORED_TEXT_FIELDS } from "../../src/pii/views";
import { api, expectProblem, internal, newProject } from "./helpers";

const post = (path: string, json: unknown) => api(path, { method: "POST", headers: internal, json });
const get = (path: string) => api(path, { headers: internal });
const user = { id: "u_reveals", email: "admin@example.com" };

describe("The reveal audit for the dashboard server (/internal/projects/{id}/pii-reveals)", () => {
  it("Should record a user's reveal of each request and list them newest first, of one request on asking", async () => {
    const { projectId } = await newProject();
    const [a, b] = [crypto.randomUUID(), crypto.randomUUID()];
    const recorded = await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: [a], user });
    expect(recorded.status).toBe(204);
    expect((await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: [b], user: { ...user, email: "later@example.com" } })).status).toBe(204);
    const all = await get(`/internal/projects/${projectId}/pii-reveals`);
    expect(all.status).toBe(200);
    const { items } = (await all.json()) as { items: { request_id: string; revealed_by: string }[] };
    expect(items).toEqual([
      {
        id: expect.any(String),
        request_id: b,
        actor: "user",
        revealed_by: "later@example.com",
        api_key_id: null,
        revealed_at: expect.any(String),
        fields: [...STORED_TEXT_FIELDS],
      },
      {
        id: expect.any(String),
        request_id: a,
        actor: "user",
        revealed_by: "admin@example.com",
        api_key_id: null,
        revealed_at: expect.any(String),
        fields: [...STORED_TEXT_FIELDS],
      },
    ]);
    const ofA = (await (await get(`/internal/projects/${projectId}/pii-reveals?request_id=${a}`)).json()) as { items: { request_id: string }[] };
    expect(ofA.items.map((r) => r.request_id)).toEqual([a]);
    // Another project's audit is its own.
    const other = await newProject();
    expect(await (await get(`/internal/projects/${other.projectId}/pii-reveals`)).json()).toEqual({ items: [] });
  });

  it("Should answer 404 for an unknown project and 422 naming the field for a bad body or query", async () => {
    const { projectId } = await newProject();
    await expectProblem(
      await post(`/internal/projects/${crypto.randomUUID()}/pii-reveals`, { request_ids: [crypto.randomUUID()], user }),
      404,
      "project not found",
    );
    await expectProblem(await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: [], user }), 422, "request_ids");
    await expectProblem(await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: ["not-a-uuid"], user }), 422, "request_ids.0");
    await expectProblem(await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: [crypto.randomUUID()] }), 422, "user");
    await expectProblem(
      await post(`/internal/projects/${projectId}/pii-reveals`, { request_ids: [crypto.randomUUID()], user: { id: "", email: "e" } }),
      422,
      "user.id",
    );
    await expectProblem(await get(`/internal/projects/${projectId}/pii-reveals?request_id=nope`), 422, "request_id");
    expect(await (await get(`/internal/projects/${projectId}/pii-reveals`)).json()).toEqual({ items: [] });
  });
});

describe("The search check for the dashboard server (POST /internal/pii/search-check)", () => {
  const check = async (json: unknown) => {
    const res = await post("/internal/pii/search-check", json);
    expect(res.status).toBe(200);
    return ((await res.json()) as { filter: string | null }).filter;
  };

  it("Should name the first text filter holding personal data, judged on PostgreSQL's lexemes for q, and null otherwise", async () => {
    expect(await check({ q: "jane@example.com" })).toBe("q");
    // The parser reads these commas as separators: the four groups are the card's number.
    expect(await check({ q: "4111,1111,1111,1111" })).toBe("q");
    expect(await check({ q: "refund policy", model: "gpt-4o", provider: "jane@example.com" })).toBe("provider");
    expect(await check({ model: "4111 1111 1111 1111" })).toBe("model");
    expect(await check({ q: "refund policy", model: "gpt-4o" })).toBeNull();
    expect(await check({})).toBeNull();
  });

  it("Should refuse a filter that is no text with 422 naming it, and callers without the internal secret with 401", async () => {
    await expectProblem(await post("/internal/pii/search-check", { q: 5 }), 422, "q");
    await expectProblem(await api("/internal/pii/search-check", { method: "POST", json: { q: "x" } }), 401, "X-Internal-Secret");
  });
});
