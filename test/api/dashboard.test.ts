/**
 * The dashboard's API additions against the real worker and PostgreSQL: keyset pagination,
 * filters, the separate count, detail neighbours, review verdicts, the streamed export with
 * PII masked, and the overview time series.
 */
import { describe, expect, it } from "vitest";
import { SCORER_NAMES } from "../../src/enums";
import { api, logBody, newProject, postLog, sql, expectProblem } from "./helpers";

type Chip = { scorer_name: string; score_value: number | null; score_label: string; verdict: string | null };
type Item = { id: string; provider: string; is_error: boolean; scores: Chip[]; created_at: string };
type KeysetPage = { items: Item[]; next_cursor: string | null; limit: number };

const get = (path: string, key: string) => api(path, { headers: { "X-Service-Key": key } });
const json = async <T>(path: string, key: string): Promise<T> => {
  const res = await get(path, key);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
};

const T0 = Date.UTC(2026, 9, 1);

/** Logs one call through the API; returns its id. */
async function log(key: string, i: number, overrides: Record<string, unknown> = {}) {
  const res = await postLog(key, logBody({ created_at: new Date(T0 + i * 60_000).toISOString(), ...overrides }));
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

/** Writes all six scores of a request; `unsafe` names the scorers labelled unsafe (value 5). */
/**
 * The body of an `it.each` over `[case, query, field]`: GET `path?query` with the key of a new
 * project (after `seed` wrote to it, when given) answers 422 naming `field`.
 */
const refusedQuery = (path: string, seed?: (key: string) => Promise<unknown>) => async (_: string, query: string, field: string) => {
  const { key } = await newProject();
  await seed?.(key);
  await expectProblem(await get(`${path}?${query}`, key), 422, field);
};

async function scoreAll(requestId: string, projectId: string, unsafe: string[] = []) {
  for (const name of SCORER_NAMES) {
    const bad = unsafe.includes(name);
    await sql(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5, 'test', created_at FROM llm_requests WHERE id = $1`,
      [requestId, projectId, name, bad ? 5 : 1, bad ? "unsafe" : "safe"],
    );
  }
}

/**
 * Seeds `n` requests of one project straight in SQL (one statement), created one second apart
 * from `from`, as already scored: pending rows this old would crowd the sweep test's own
 * request out of its claim (the sweep takes the oldest unscored rows of the whole database).
 */
async function seedBulk(projectId: string, n: number, from: number, body = "bulk row {i} mail jane.doe{i}@example.com") {
  await sql(
    `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms, cost_usd, scoring_state)
     SELECT gen_random_uuid(), $1, 'gpt-4o-mini', 'openai',
            jsonb_build_object('messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content', replace($4, '{i}', i::text)))),
            '{"choices":[{"message":{"role":"assistant","content":"ok"}}]}', '{}',
            to_timestamp($3::double precision / 1000) + i * interval '1 second', 100 + i % 100, 0.001, 'scored'
       FROM generate_series(1, $2::int) AS i`,
    [projectId, n, from, body],
  );
}

describe("GET /api/requests/keyset", () => {
  it("Should walk every row exactly once, newest first, and end with next_cursor null", async () => {
    const { key, projectId } = await newProject();
    await seedBulk(projectId, 23, T0);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: KeysetPage = await json(`/api/requests/keyset?limit=5${cursor ? `&cursor=${cursor}` : ""}`, key);
      seen.push(...page.items.map((r) => r.id));
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(new Set(seen).size).toBe(23);
    const stored = await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at DESC, id DESC", [projectId]);
    expect(seen).toEqual(stored.map((r) => r.id));
  });

  it("Should keep rows that share a created_at (microseconds) apart by id", async () => {
    const { key, projectId } = await newProject();
    await sql(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state)
       SELECT gen_random_uuid(), $1, 'm', 'openai', '{}', '2026-10-01T00:00:00.123456Z', 'scored' FROM generate_series(1, 7)`,
      [projectId],
    );
    const a: KeysetPage = await json("/api/requests/keyset?limit=4", key);
    const b: KeysetPage = await json(`/api/requests/keyset?limit=4&cursor=${a.next_cursor}`, key);
    expect(b.next_cursor).toBeNull();
    expect(new Set([...a.items, ...b.items].map((r) => r.id)).size).toBe(7);
  });

  it("Should give only newer rows with `after`, and chosen rows with `ids`", async () => {
    const { key } = await newProject();
    const ids = [await log(key, 0), await log(key, 1), await log(key, 2)];
    const newer: KeysetPage = await json(`/api/requests/keyset?after=${ids[0]}`, key);
    expect(newer.items.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(await json(`/api/requests/count?after=${ids[1]}`, key)).toEqual({ total: 1 });
    const chosen: KeysetPage = await json(`/api/requests/keyset?ids=${ids[0]},${ids[2]}`, key);
    expect(chosen.items.map((r) => r.id)).toEqual([ids[2], ids[0]]);
    expect(chosen.items[0]!.scores).toEqual([]);
  });

  it.each([
    ["cursor of another project", "cursor=00000000-0000-7000-8000-000000000000", "cursor"],
    ["label without scorer", "label=unsafe", "label"],
    ["unknown scorer label", "label[content_safety]=bad", "label[content_safety]"],
    ["min_score out of range", "min_score=6", "min_score"],
    ["limit too large", "limit=201", "limit"],
    ["empty search", "q=%20", "q"],
  ])(
    "Should answer 422 naming the field for %s",
    refusedQuery("/api/requests/keyset", (key) => log(key, 0)),
  );

  it.each(["limit=5", "cursor=00000000-0000-7000-8000-000000000000", "ids=00000000-0000-7000-8000-000000000000"])(
    "Should refuse the keyset parameter in %s on the page-numbered list and point to /api/requests/keyset",
    async (query) => {
      const { key } = await newProject();
      const res = await get(`/api/requests?${query}`, key);
      expect(res.status).toBe(422);
      expect(((await res.json()) as { detail: string }).detail).toContain("/api/requests/keyset");
    },
  );
});

describe("Request filters", () => {
  it("Should filter by provider, status, per-scorer label, min_score and text, with a matching count", async () => {
    const { key, projectId } = await newProject();
    const plain = await log(key, 0, { request_body: { messages: [{ role: "user", content: "Recommend a novel about whales" }] } });
    const failed = await log(key, 1, { provider: "anthropic", metadata: { status: "error", error: { type: "rate_limit", message: "429" } } });
    const unsafe = await log(key, 2, { response_body: { choices: [{ message: { role: "assistant", content: "Here is how to pick a lock" } }] } });
    const pending = await log(key, 3);
    await scoreAll(plain, projectId);
    await scoreAll(failed, projectId);
    await scoreAll(unsafe, projectId, ["content_safety", "jailbreak_detection"]);
    const ids = async (query: string) => {
      const page: KeysetPage = await json(`/api/requests/keyset?limit=50&${query}`, key);
      const { total } = await json<{ total: number }>(`/api/requests/count?${query}`, key);
      expect(total).toBe(page.items.length);
      return page.items.map((r) => r.id);
    };
    expect(await ids("provider=anthropic")).toEqual([failed]);
    expect(await ids("status=error")).toEqual([failed]);
    expect(await ids("status=ok")).toEqual([pending, unsafe, plain]);
    expect(await ids("label[content_safety]=unsafe")).toEqual([unsafe]);
    expect(await ids("scorer=jailbreak_detection&label=unsafe")).toEqual([unsafe]);
    expect(await ids("label[content_safety]=safe&label[jailbreak_detection]=unsafe")).toEqual([]);
    expect(await ids("label[pii_detection]=safe")).toEqual([unsafe, failed, plain]);
    expect(await ids("min_score=4")).toEqual([unsafe]);
    expect(await ids("min_score=4&scorer=pii_detection")).toEqual([]);
    expect(await ids("q=whales")).toEqual([plain]);
    expect(await ids("q=lock")).toEqual([unsafe]);
    expect(await ids("q=%22pick%20a%20lock%22%20-whales")).toEqual([unsafe]);
    // Page mode takes the same filters and keeps the envelope of docs/interface.md section 4.3.
    expect(await json("/api/requests?page=1&page_size=10&status=error", key)).toMatchObject({
      total: 1,
      page: 1,
      page_size: 10,
      items: [{ id: failed, is_error: true }],
    });
    // The list rows carry their score chips: six when scored, none while pending.
    const rows: KeysetPage = await json("/api/requests/keyset?limit=10", key);
    expect(rows.items.find((r) => r.id === pending)!.scores).toEqual([]);
    const chips = rows.items.find((r) => r.id === unsafe)!.scores;
    expect(chips.map((c) => c.scorer_name)).toEqual([...SCORER_NAMES].sort());
    expect(chips.find((c) => c.scorer_name === "content_safety")).toEqual({
      scorer_name: "content_safety",
      score_value: 5,
      score_label: "unsafe",
      verdict: null,
      review_changed: false,
    });
  });

  it("Should page a text search through both of its plans (newest rows walked, then the GIN index)", async () => {
    const { key, projectId } = await newProject();
    await seedBulk(projectId, 60, T0, "bulk row {i}");
    await seedBulk(projectId, 30, T0 + 100_000, "other row {i}");
    // Page 1: the newest 2,000 rows hold a full page; page 2: they do not (GIN path).
    const first: KeysetPage = await json("/api/requests/keyset?limit=50&q=bulk", key);
    expect(first.items).toHaveLength(50);
    const second: KeysetPage = await json(`/api/requests/keyset?limit=50&q=bulk&cursor=${first.next_cursor}`, key);
    expect(second.items).toHaveLength(10);
    expect(second.next_cursor).toBeNull();
    const stored = await sql<{ id: string }>(
      "SELECT id FROM llm_requests WHERE project_id = $1 AND request_body::text LIKE '%bulk%' ORDER BY created_at DESC, id DESC",
      [projectId],
    );
    expect([...first.items, ...second.items].map((r) => r.id)).toEqual(stored.map((r) => r.id));
    expect(await json("/api/requests/count?q=bulk", key)).toEqual({ total: 60 });
  });

  it("Should give the detail's neighbours among the filtered rows", async () => {
    const { key } = await newProject();
    const a = await log(key, 0, { provider: "anthropic" });
    await log(key, 1, { provider: "openai" });
    const c = await log(key, 2, { provider: "anthropic" });
    await log(key, 3, { provider: "openai" });
    const e = await log(key, 4, { provider: "anthropic" });
    const mid = await json<{ neighbours: unknown }>(`/api/requests/${c}?neighbours=true&provider=anthropic`, key);
    expect(mid.neighbours).toEqual({ newer_id: e, older_id: a });
    const top = await json<{ neighbours: unknown }>(`/api/requests/${e}?neighbours=true&provider=anthropic`, key);
    expect(top.neighbours).toEqual({ newer_id: null, older_id: c });
    expect(await json(`/api/requests/${e}`, key)).not.toHaveProperty("neighbours");
  });
});

describe("POST /api/safety-scores/{id}/review", () => {
  it("Should store who and when, show it on the request, and filter by it", async () => {
    const { key, projectId } = await newProject();
    const flagged = await log(key, 0);
    const other = await log(key, 1);
    await scoreAll(flagged, projectId, ["content_safety"]);
    await scoreAll(other, projectId, ["content_safety"]);
    const [score] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE request_id = $1 AND scorer_name = 'content_safety'", [flagged]);
    const before = Date.now();
    const res = await api(`/api/safety-scores/${score!.id}/review`, {
      method: "POST",
      headers: { "X-Service-Key": key },
      json: { verdict: "false_positive", reviewer: "ana@example.com" },
    });
    expect(res.status).toBe(200);
    const review = (await res.json()) as { verdict: string; reviewer: string; reviewed_at: string; request_id: string };
    expect(review).toMatchObject({ verdict: "false_positive", reviewer: "ana@example.com", request_id: flagged, scorer_name: "content_safety" });
    expect(Date.parse(review.reviewed_at)).toBeGreaterThanOrEqual(before - 5_000);

    const detail = await json<{ safety_scores: { scorer_name: string; review: unknown }[] }>(`/api/requests/${flagged}`, key);
    expect(detail.safety_scores.find((s) => s.scorer_name === "content_safety")!.review).toMatchObject({
      verdict: "false_positive",
      reviewer: "ana@example.com",
    });
    expect(detail.safety_scores.filter((s) => s.review !== null)).toHaveLength(1);

    const fp: KeysetPage = await json("/api/requests/keyset?limit=10&reviewed=false_positive", key);
    expect(fp.items.map((r) => r.id)).toEqual([flagged]);
    expect(fp.items[0]!.scores.find((c) => c.scorer_name === "content_safety")!.verdict).toBe("false_positive");
    expect(await json("/api/requests/count?reviewed=false_positive&scorer=pii_detection", key)).toEqual({ total: 0 });

    // A new verdict replaces the old one.
    await api(`/api/safety-scores/${score!.id}/review`, { method: "POST", headers: { "X-Service-Key": key }, json: { verdict: "confirmed", reviewer: "bo" } });
    expect(await json("/api/requests/count?reviewed=false_positive", key)).toEqual({ total: 0 });
    expect(await json("/api/requests/count?reviewed=confirmed", key)).toEqual({ total: 1 });
  });

  it("Should answer 404 for another project's score and 422 for a bad verdict", async () => {
    const a = await newProject();
    const b = await newProject();
    const req = await log(a.key, 0);
    await scoreAll(req, a.projectId);
    const [score] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE request_id = $1 LIMIT 1", [req]);
    const post = (key: string, body: unknown) =>
      api(`/api/safety-scores/${score!.id}/review`, { method: "POST", headers: { "X-Service-Key": key }, json: body });
    const foreign = await post(b.key, { verdict: "confirmed", reviewer: "x" });
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ detail: "safety score not found" });
    const bad = await post(a.key, { verdict: "maybe", reviewer: "x" });
    await expectProblem(bad, 422, "verdict");
    expect((await post(a.key, { verdict: "confirmed", reviewer: " " })).status).toBe(422);
    expect(await sql("SELECT 1 FROM score_reviews WHERE score_id = $1", [score!.id])).toHaveLength(0);
  });
});

describe("GET /api/requests/export", () => {
  it("Should stream every matching row (more than one database page) as JSONL with PII masked", async () => {
    const { key, projectId } = await newProject();
    await seedBulk(projectId, 2_345, T0);
    await seedBulk(projectId, 5, T0 + 10_000_000, "other row {i}");
    const res = await get("/api/requests/export?format=jsonl&q=bulk", key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = new TextDecoder()
      .decode(await res.arrayBuffer())
      .trim()
      .split("\n");
    expect(lines).toHaveLength(2_345);
    const rows = lines.map((l) => JSON.parse(l) as { id: string; request_body: { messages: { content: string }[] } });
    expect(new Set(rows.map((r) => r.id)).size).toBe(2_345);
    const text = rows.map((r) => r.request_body.messages[0]!.content).join("\n");
    expect(text).not.toContain("@example.com");
    expect(rows[0]!.request_body.messages[0]!.content).toMatch(/^bulk row \d+ mail \[EMAIL\]$/);
  });

  it("Should export CSV with scores and review verdicts per scorer", async () => {
    const { key, projectId } = await newProject();
    const id = await log(key, 0, { request_body: { messages: [{ role: "user", content: 'card 4111 1111 1111 1111, say "hi", ok' }] } });
    await scoreAll(id, projectId, ["pii_detection"]);
    const [score] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE request_id = $1 AND scorer_name = 'pii_detection'", [id]);
    await api(`/api/safety-scores/${score!.id}/review`, { method: "POST", headers: { "X-Service-Key": key }, json: { verdict: "confirmed", reviewer: "ana" } });
    const res = await get("/api/requests/export?format=csv", key);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const [header, row, ...rest] = (await res.text()).split("\r\n");
    expect(rest).toEqual([""]);
    const cols = header!.split(",");
    expect(cols).toContain("pii_detection_verdict");
    expect(row).toContain(id);
    expect(row).not.toContain("4111");
    expect(row).toContain("[CREDIT_CARD]");
    // The JSON body is one quoted field with its quotes doubled (RFC 4180).
    expect(row).toContain('""content"":""card [CREDIT_CARD], say \\""hi\\"", ok""');
    expect(row).toContain(",5,unsafe,confirmed,");
  });
});

describe("GET /api/stats/timeseries", () => {
  it("Should give per-bucket counts, error rate, latency percentiles, cost and unsafe rates, with empty buckets", async () => {
    const { key, projectId } = await newProject();
    const at = (h: number, m: number) => new Date(T0 + h * 3_600_000 + m * 60_000).toISOString();
    const ids: string[] = [];
    for (const [i, latency] of [100, 200, 300, 400].entries()) {
      const res = await postLog(key, logBody({ created_at: at(0, i), latency_ms: latency, cost_usd: 0.25, metadata: i === 0 ? { status: "error" } : {} }));
      ids.push(((await res.json()) as { id: string }).id);
    }
    await postLog(key, logBody({ created_at: at(2, 5), latency_ms: 50 }));
    await scoreAll(ids[0]!, projectId, ["content_safety"]);
    await scoreAll(ids[1]!, projectId);
    await sql("UPDATE safety_scores SET created_at = $2 WHERE project_id = $1", [projectId, at(0, 30)]);
    // Moved by hand, not by a writer of the API: recompute the hourly rollups from the rows.
    await sql("SELECT sightline_rebuild_rollups()");
    const body = await json<{ points: Record<string, unknown>[] }>(`/api/stats/timeseries?bucket=hour&start=${at(0, 0)}&end=${at(3, 0)}`, key);
    expect(body.points).toHaveLength(3);
    const [first, empty, third] = body.points as { scorers: { scorer_name: string; unsafe_rate: number | null; scores: number }[] }[];
    expect(first).toMatchObject({
      bucket: at(0, 0).replace("Z", "").slice(0, 19) + ".000Z",
      requests: 4,
      errors: 1,
      error_rate: 0.25,
      cost_usd: 1,
    });
    // Percentiles come from the hour's latency histogram: within one bucket (9%) of the exact
    // percentile_cont values 250 and 385.
    const { p50_latency_ms: p50, p95_latency_ms: p95 } = first as unknown as { p50_latency_ms: number; p95_latency_ms: number };
    expect(Math.abs(p50 - 250) / 250).toBeLessThan(0.09);
    expect(Math.abs(p95 - 385) / 385).toBeLessThan(0.09);
    expect(first!.scorers.find((s) => s.scorer_name === "content_safety")).toMatchObject({ scores: 2, unsafe: 1, unsafe_rate: 0.5 });
    expect(first!.scorers.find((s) => s.scorer_name === "pii_detection")).toMatchObject({ scores: 2, unsafe: 0, unsafe_rate: 0 });
    expect(empty).toMatchObject({ requests: 0, error_rate: null, p50_latency_ms: null, cost_usd: 0 });
    expect(empty!.scorers.every((s) => s.unsafe_rate === null && s.scores === 0)).toBe(true);
    expect(third).toMatchObject({ requests: 1 });
    expect(Math.abs((third as unknown as { p50_latency_ms: number }).p50_latency_ms - 50)).toBeLessThan(50 * 0.09);
    const day = await json<{ points: { requests: number }[] }>(`/api/stats/timeseries?bucket=day&start=${at(0, 0)}&end=${at(48, 0)}`, key);
    expect(day.points.map((p) => p.requests)).toEqual([5, 0]);
  });

  it.each([
    ["start after end", "bucket=hour&start=2026-10-02T00:00:00Z&end=2026-10-01T00:00:00Z", "start"],
    ["too many buckets", "bucket=hour&start=2020-01-01T00:00:00Z&end=2026-01-01T00:00:00Z", "end"],
    ["missing start", "bucket=day&end=2026-10-01T00:00:00Z", "start"],
    ["bad bucket", "bucket=week&start=2026-10-01T00:00:00Z&end=2026-10-02T00:00:00Z", "bucket"],
  ])("Should answer 422 for %s", refusedQuery("/api/stats/timeseries"));
});
