/**
 * POST /api/rescore and GET /api/rescore/{job_id} (docs/rescoring.md) at the HTTP boundary; the
 * job's run on the scoring queue is tested in the scorer project (test/scorer/rescore.test.ts).
 * Also `retention_days` of GET /api/billing/subscription (docs/retention.md).
 */
import { describe, expect, it } from "vitest";
import { api, internal, logBody, newProject, postLog, sql } from "./helpers";

const start = (key: string, json: unknown) => api("/api/rescore", { method: "POST", headers: { "X-Service-Key": key }, json });

describe("POST /api/rescore", () => {
  it("Should answer 202 with a running job counting the range's calls, readable by its id", async () => {
    const { key } = await newProject();
    for (let i = 0; i < 3; i++) expect((await postLog(key, logBody())).status).toBe(202);
    const until = new Date(Date.now() + 60_000).toISOString();
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const res = await start(key, { since, until });
    expect(res.status).toBe(202);
    const job = (await res.json()) as { id: string; state: string; total: number; done: number; reason: string };
    expect(job).toMatchObject({ state: "running", total: 3, done: 0, reason: "api" });
    const read = await api(`/api/rescore/${job.id}`, { headers: { "X-Service-Key": key } });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { id: string }).id).toBe(job.id);
  });

  it("Should refuse ranges over 90 days, reversed or malformed with 422 naming the field", async () => {
    const { key } = await newProject();
    const cases: [unknown, string][] = [
      [{ since: "2026-01-01T00:00:00Z", until: "2026-04-02T00:00:00Z" }, "until"],
      [{ since: "2026-03-01T00:00:00Z", until: "2026-02-01T00:00:00Z" }, "since"],
      [{ since: "yesterday", until: "2026-02-01T00:00:00Z" }, "since"],
      [{ until: "2026-02-01T00:00:00Z" }, "since"],
    ];
    for (const [body, field] of cases) {
      const res = await start(key, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(((await res.json()) as { detail: string }).detail.startsWith(`${field}:`)).toBe(true);
    }
    expect((await start(key, { since: "2026-01-01T00:00:00Z", until: "2026-04-01T00:00:00Z" })).status).toBe(202);
  });

  it("Should answer 404 for an unknown job and for another project's", async () => {
    const a = await newProject();
    const b = await newProject();
    const job = (await (await start(a.key, { since: "2026-01-01T00:00:00Z", until: "2026-01-02T00:00:00Z" })).json()) as { id: string };
    expect((await api(`/api/rescore/${job.id}`, { headers: { "X-Service-Key": b.key } })).status).toBe(404);
    expect((await api(`/api/rescore/${crypto.randomUUID()}`, { headers: { "X-Service-Key": a.key } })).status).toBe(404);
    expect((await api(`/api/rescore/${job.id}?project_id=${a.projectId}`, { headers: internal })).status).toBe(200);
  });
});

describe("GET /api/requests/{id} after a re-score", () => {
  it("Should list current scores in safety_scores and the replaced ones in score_history", async () => {
    const { key, projectId } = await newProject();
    const { id } = (await (await postLog(key, logBody())).json()) as { id: string };
    await sql(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, scorer_version, scored_at, superseded_at, decided_by, created_at)
       SELECT v.*, r.created_at FROM (VALUES (gen_random_uuid(), $1::uuid, $2::uuid, 'content_safety', 4::smallint, 'unsafe', 'old', 'model-aaaaaaaaaaaa', now() - interval '2 days', now() - interval '1 day', NULL),
              (gen_random_uuid(), $1::uuid, $2::uuid, 'content_safety', 2::smallint, 'safe', 'new', 'model-bbbbbbbbbbbb', now() - interval '1 day', NULL, '@cf/meta/llama-guard-3-8b')) AS v
       JOIN llm_requests r ON r.id = $1::uuid`,
      [id, projectId],
    );
    const res = await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } });
    expect(res.status).toBe(200);
    const detail = (await res.json()) as {
      safety_scores: { scorer_name: string; score_value: number; scorer_version: string; decided_by: string | null }[];
      score_history: { scorer_name: string; score_value: number; scorer_version: string; superseded_at: string; decided_by: string | null }[];
    };
    expect(detail.safety_scores.filter((s) => s.scorer_name === "content_safety")).toMatchObject([
      { score_value: 2, scorer_version: "model-bbbbbbbbbbbb", decided_by: "@cf/meta/llama-guard-3-8b" },
    ]);
    expect(detail.score_history).toMatchObject([{ scorer_name: "content_safety", score_value: 4, scorer_version: "model-aaaaaaaaaaaa", decided_by: null }]);
    expect(Date.parse(detail.score_history[0]!.superseded_at)).not.toBeNaN();
    // Lists and counts read current scores only.
    const list = (await (await api(`/api/safety-scores?request_id=${id}`, { headers: { "X-Service-Key": key } })).json()) as {
      total: number;
      items: { decided_by: string | null }[];
    };
    expect(list.total).toBe(1);
    expect(list.items[0]!.decided_by).toBe("@cf/meta/llama-guard-3-8b");
  });
});

describe("GET /api/billing/subscription", () => {
  it("Should give the tier's retention_days (free: 30)", async () => {
    const { key } = await newProject();
    const res = await api("/api/billing/subscription", { headers: { "X-Service-Key": key } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { tier: string; retention_days: number }).retention_days).toBe(30);
  });
});
