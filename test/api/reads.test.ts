import { describe, expect, it } from "vitest";
import { api, logBody, newProject, postLog, sql, expectProblem } from "./helpers";

type Page<T> = { items: T[]; total: number; page: number; page_size: number };
type Req = { id: string; model: string; created_at: string; project_id: string };

const get = (path: string, key: string) => api(path, { headers: { "X-Service-Key": key } });

async function seed(key: string, n: number, model = "gpt-4o-mini", start = Date.UTC(2026, 9, 1)) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await postLog(key, logBody({ model, created_at: new Date(start + i * 60_000).toISOString() }));
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids;
}

async function addScore(requestId: string, projectId: string, scorer: string, value: number | null, label: string) {
  await sql(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), $1, $2, $3, $4, $5, 'test', created_at FROM llm_requests WHERE id = $1`,
    [requestId, projectId, scorer, value, label],
  );
}

describe("GET /api/requests", () => {
  it("Should page newest first with the spec's envelope", async () => {
    const { key } = await newProject();
    const ids = await seed(key, 5);
    const res = await get("/api/requests?page=1&page_size=2", key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Page<Req>;
    expect(body).toMatchObject({ total: 5, page: 1, page_size: 2 });
    expect(body.items.map((r) => r.id)).toEqual([ids[4], ids[3]]);
    const last = (await (await get("/api/requests?page=3&page_size=2", key)).json()) as Page<Req>;
    expect(last.items.map((r) => r.id)).toEqual([ids[0]]);
    const beyond = (await (await get("/api/requests?page=4&page_size=2", key)).json()) as Page<Req>;
    expect(beyond).toMatchObject({ items: [], total: 5, page: 4 });
  });

  it("Should default to page 1 of 50", async () => {
    const { key } = await newProject();
    await seed(key, 1);
    expect(await (await get("/api/requests", key)).json()).toMatchObject({ page: 1, page_size: 50, total: 1 });
  });

  it.each(["page=0", "page_size=0", "page_size=201", "page=abc", "start=yesterday", "project_id=nope"])("Should answer 422 for %s", async (query) => {
    const { key } = await newProject();
    const res = await get(`/api/requests?${query}`, key);
    await expectProblem(res, 422, query.split("=")[0]!);
  });

  it("Should filter by model and by [start, end)", async () => {
    const { key } = await newProject();
    const t0 = Date.UTC(2026, 9, 1);
    const a = await seed(key, 3, "model-a", t0);
    await seed(key, 2, "model-b", t0);
    const byModel = (await (await get("/api/requests?model=model-a", key)).json()) as Page<Req>;
    expect(byModel.total).toBe(3);
    expect(byModel.items.every((r) => r.model === "model-a")).toBe(true);
    const start = new Date(t0 + 60_000).toISOString();
    const end = new Date(t0 + 120_000).toISOString();
    const ranged = (await (await get(`/api/requests?model=model-a&start=${start}&end=${end}`, key)).json()) as Page<Req>;
    expect(ranged.items.map((r) => r.id)).toEqual([a[1]]); // start inclusive, end exclusive
  });

  it("Should not list another project's requests", async () => {
    const a = await newProject();
    const b = await newProject();
    await seed(a.key, 2);
    expect(((await (await get("/api/requests", b.key)).json()) as Page<Req>).total).toBe(0);
    expect((await get(`/api/requests?project_id=${a.projectId}`, b.key)).status).toBe(404);
  });
});

describe("GET /api/requests/{id}", () => {
  it("Should return full bodies and the request's scores", async () => {
    const { key, projectId } = await newProject();
    const [id] = await seed(key, 1);
    await addScore(id!, projectId, "pii_detection", 1, "safe");
    await addScore(id!, projectId, "content_safety", 4, "unsafe");
    const res = await get(`/api/requests/${id}`, key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { request_body: unknown; response_body: unknown; safety_scores: { scorer_name: string; score_value: number }[] };
    expect(body.request_body).toEqual(logBody().request_body);
    expect(body.response_body).toEqual(logBody().response_body);
    expect(body.safety_scores.map((s) => [s.scorer_name, s.score_value])).toEqual([
      ["content_safety", 4],
      ["pii_detection", 1],
    ]);
  });

  it("Should answer 404 for an unknown id and for another project's request", async () => {
    const a = await newProject();
    const b = await newProject();
    const [id] = await seed(a.key, 1);
    const unknown = await get(`/api/requests/${crypto.randomUUID()}`, a.key);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ detail: "request not found" });
    const other = await get(`/api/requests/${id}`, b.key);
    expect(other.status).toBe(404);
    expect(await other.json()).toEqual({ detail: "request not found" });
  });

  it("Should answer 422 for an id that is not a UUID", async () => {
    const { key } = await newProject();
    expect((await get("/api/requests/123", key)).status).toBe(422);
  });
});

describe("GET /api/safety-scores and summary", () => {
  it("Should filter by request, scorer, min_score and label", async () => {
    const { key, projectId } = await newProject();
    const [r1, r2] = await seed(key, 2);
    await addScore(r1!, projectId, "jailbreak_detection", 5, "unsafe");
    await addScore(r1!, projectId, "pii_detection", 2, "safe");
    await addScore(r2!, projectId, "jailbreak_detection", 1, "safe");
    await addScore(r2!, projectId, "pii_detection", null, "unscored");
    type S = { request_id: string; scorer_name: string; score_value: number | null };
    const all = (await (await get("/api/safety-scores", key)).json()) as Page<S>;
    expect(all.total).toBe(4);
    const byReq = (await (await get(`/api/safety-scores?request_id=${r1}`, key)).json()) as Page<S>;
    expect(byReq.items.every((s) => s.request_id === r1)).toBe(true);
    expect(byReq.total).toBe(2);
    const jb = (await (await get("/api/safety-scores?scorer_name=jailbreak_detection&min_score=4", key)).json()) as Page<S>;
    expect(jb.items.map((s) => [s.request_id, s.score_value])).toEqual([[r1, 5]]);
    const unscored = (await (await get("/api/safety-scores?label=unscored", key)).json()) as Page<S>;
    expect(unscored.items.map((s) => s.score_value)).toEqual([null]);
    expect((await get("/api/safety-scores?scorer_name=made_up", key)).status).toBe(422);
    expect((await get("/api/safety-scores?min_score=6", key)).status).toBe(422);
  });

  it("Should count scores per scorer and label with the mean", async () => {
    const { key, projectId } = await newProject();
    const [r1, r2, r3] = await seed(key, 3);
    await addScore(r1!, projectId, "content_safety", 5, "unsafe");
    await addScore(r2!, projectId, "content_safety", 1, "safe");
    await addScore(r3!, projectId, "content_safety", null, "unscored");
    const res = await get("/api/safety-scores/summary", key);
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      scorers: { scorer_name: string; total: number; safe: number; unsafe: number; unscored: number; mean_score: number | null }[];
    };
    expect(body.scorers).toHaveLength(6);
    expect(body.scorers.find((s) => s.scorer_name === "content_safety")).toEqual({
      scorer_name: "content_safety",
      total: 3,
      safe: 1,
      unsafe: 1,
      unscored: 1,
      mean_score: 3,
    });
    expect(body.scorers.find((s) => s.scorer_name === "pii_detection")).toMatchObject({ total: 0, mean_score: null });
    const future = await get(`/api/safety-scores/summary?start=${new Date(Date.now() + 86_400_000).toISOString()}`, key);
    expect(((await future.json()) as typeof body).scorers.every((s) => s.total === 0)).toBe(true);
  });

  it("Should keep scores and summaries inside the project", async () => {
    const a = await newProject();
    const b = await newProject();
    const [r] = await seed(a.key, 1);
    await addScore(r!, a.projectId, "content_safety", 4, "unsafe");
    expect(((await (await get("/api/safety-scores", b.key)).json()) as Page<unknown>).total).toBe(0);
    expect(((await (await get(`/api/safety-scores?request_id=${r}`, b.key)).json()) as Page<unknown>).total).toBe(0);
    const summary = (await (await get("/api/safety-scores/summary", b.key)).json()) as { scorers: { total: number }[] };
    expect(summary.scorers.every((s) => s.total === 0)).toBe(true);
    for (const path of ["/api/safety-scores", "/api/safety-scores/summary", "/api/billing/subscription"])
      expect((await get(`${path}?project_id=${a.projectId}`, b.key)).status).toBe(404);
  });
});
