/**
 * Monthly partitions of `llm_requests` and `safety_scores` (docs/storage.md, issue 34.2):
 * - every list, detail, overview and export statement the API sends (captured from the real
 *   query functions through drizzle's logger) reads only the partitions of its time range:
 *   each statement is EXPLAINed (FORMAT JSON) with its parameters, and the partitions its plan
 *   scans are compared with the months the range touches (rows seeded across six months of 1997,
 *   one partition per month);
 * - the sweep creates the partitions of this month and the next three, moving into a new month's
 *   partition the rows the default partition held for it;
 * - a call with a `created_at` outside every month's partition lands in the default partition and
 *   is read back, and a retried batch still stores a call once.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { uuidv7 } from "uuidv7";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, workersSocket } from "../../src/db/driver/client";
import { ingestBatch } from "../../src/db/ingest-batch";
import type { LogRecord } from "../../src/db/ingest-record";
import { DEFAULT_TIER_LIMITS } from "../../src/billing/tiers";
import { hashKey } from "../../src/auth/keys";
import { exportPage } from "../../src/db/request-export";
import { requestIdAt } from "../../src/db/request-time";
import { countRequests, getRequest, listRequests, listRequestsKeyset, neighbours } from "../../src/db/requests";
import { reviewedPage } from "../../src/db/review-export";
import { listScores, summarizeScores } from "../../src/db/scores";
import { requestBuckets, scoreBuckets } from "../../src/db/stats";
import { monthPartitions } from "../../src/upkeep/partitions";
import { SCORER_NAMES } from "../../src/enums";
import { api, internal, logBody, newProject, postLog, sql, testEnv } from "./helpers";

/** Seeded months: January to June 1997 (UTC), a partition each; no other test file writes there. */
const YEAR = 1997;
const MONTHS = 6;
const month = (m: number) => new Date(Date.UTC(YEAR, m - 1, 1));
/** The range most reads ask for: March. */
const MARCH = { start: month(3), end: month(4) };

let pool: pg.Pool;
let captured: { query: string; params: unknown[] }[] = [];
let db: Db;
let projectId = "";
/** A request in the middle of March (its id's timestamp is its `created_at`). */
let marchId = "";

beforeAll(async () => {
  ({ projectId } = await newProject("partitions"));
  // Kept forever, so a retention run elsewhere in the suite never drops these months.
  await sql("UPDATE subscriptions SET tier = 'enterprise' WHERE project_id = $1", [projectId]);
  for (let m = 1; m <= MONTHS; m++) {
    for (const table of ["llm_requests", "safety_scores"]) {
      await sql("SELECT sightline_create_month_partition($1, $2::timestamptz)", [table, month(m).toISOString()]);
    }
  }
  // 40 requests a month, one every 18 hours from the 1st, with ids carrying their time.
  const rows: [string, string][] = [];
  for (let m = 1; m <= MONTHS; m++) {
    for (let i = 0; i < 40; i++) {
      const at = new Date(month(m).getTime() + i * 18 * 3_600_000 + 1_234);
      rows.push([requestIdAt(at), at.toISOString()]);
    }
  }
  await sql(
    `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms, cost_usd, scoring_state)
     SELECT r.id, $1, 'gpt-4o-mini', 'openai', '{"messages":[{"role":"user","content":"hello partitions"}]}', '{"choices":[]}',
            '{"status":"success"}', r.at, 120, 0.001, 'scored'
       FROM unnest($2::uuid[], $3::timestamptz[]) AS r(id, at)`,
    [projectId, rows.map((r) => r[0]), rows.map((r) => r[1])],
  );
  await sql(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), r.id, r.project_id, n, CASE WHEN hashtext(r.id::text || n) % 10 = 0 THEN 5 ELSE 1 END,
            CASE WHEN hashtext(r.id::text || n) % 10 = 0 THEN 'unsafe' ELSE 'safe' END, 'seed', r.created_at
       FROM llm_requests r CROSS JOIN unnest($2::text[]) AS n WHERE r.project_id = $1`,
    [projectId, [...SCORER_NAMES]],
  );
  const [mid] = await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 AND created_at >= $2 ORDER BY created_at LIMIT 1 OFFSET 20", [
    projectId,
    MARCH.start.toISOString(),
  ]);
  marchId = mid!.id;
  await sql(
    `INSERT INTO score_reviews (score_id, request_id, project_id, scorer_name, verdict, reviewer, score_value, score_label, scorer_version, policy_version)
     SELECT id, request_id, project_id, scorer_name, 'confirmed', 't', score_value, score_label, scorer_version, policy_version
       FROM safety_scores WHERE request_id = $1 AND scorer_name = 'content_safety'`,
    [marchId],
  );
  await sql("ANALYZE llm_requests");
  await sql("ANALYZE safety_scores");
  pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 1 });
  db = drizzle({ client: pool, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
}, 120_000);

afterAll(async () => {
  await pool?.end();
});

/** A plan node of EXPLAIN (FORMAT JSON): the fields read here. */
interface PlanNode {
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** The relations a plan scans (every node, sub-plans and init plans included). */
function scanned(node: PlanNode, into: Set<string>): Set<string> {
  if (node["Relation Name"]) into.add(node["Relation Name"]);
  for (const child of node.Plans ?? []) scanned(child, into);
  return into;
}

/** Runs `run` and returns, per statement it sent, the partitions of the two tables its plan scans. */
async function partitionsRead(run: () => Promise<unknown>): Promise<string[][]> {
  captured = [];
  await run();
  const statements = captured;
  captured = [];
  const out: string[][] = [];
  for (const { query, params } of statements) {
    const [row] = await sql<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${query}`, params);
    const relations = scanned(row!["QUERY PLAN"][0]!.Plan, new Set());
    out.push([...relations].filter((r) => /^(llm_requests|safety_scores)_(y\d{4}m\d{2}|default)$/.test(r)).sort());
  }
  return out;
}

/**
 * The partitions of both tables a read of `[from, to)` may need: every month's partition
 * overlapping it, and the default partition unless month partitions cover the whole range.
 */
async function partitionsOf(from: Date, to: Date): Promise<string[]> {
  const names: string[] = [];
  for (const table of ["llm_requests", "safety_scores"] as const) {
    const months = (await monthPartitions(db, table)).filter((p) => p.start < to && p.end > from);
    names.push(...months.map((p) => p.name));
    let covered = from.getTime();
    for (const p of months) if (p.start.getTime() <= covered) covered = Math.max(covered, p.end.getTime());
    if (covered < to.getTime()) names.push(`${table}_default`);
  }
  return names.sort();
}

const MARCH_PARTITIONS = [`llm_requests_y${YEAR}m03`, `safety_scores_y${YEAR}m03`];

describe("Monthly partitions: reads prune to their time range", () => {
  it.each<[string, () => Promise<unknown>]>([
    ["the keyset list", () => listRequestsKeyset(db, projectId, MARCH, { limit: 10 })],
    ["the keyset list's next page", () => listRequestsKeyset(db, projectId, MARCH, { limit: 10, cursor: marchId })],
    ["the keyset list's newer rows", () => listRequestsKeyset(db, projectId, MARCH, { limit: 10, after: marchId })],
    ["the list filtered by label", () => listRequestsKeyset(db, projectId, { ...MARCH, labels: { content_safety: "unsafe" } }, { limit: 10 })],
    ["the list filtered by min_score", () => listRequestsKeyset(db, projectId, { ...MARCH, min_score: 4 }, { limit: 10 })],
    ["the page-numbered list", () => listRequests(db, projectId, MARCH, { page: 2, page_size: 10 })],
    ["the count", () => countRequests(db, projectId, MARCH)],
    ["the detail's neighbours", () => neighbours(db, projectId, marchId, MARCH)],
    ["the score list", () => listScores(db, projectId, MARCH, { page: 1, page_size: 10 })],
    ["the score summary", () => summarizeScores(db, projectId, MARCH)],
    ["the export's first page", () => exportPage(db, null, projectId, MARCH, undefined, 10)],
    ["the export's next page", () => exportPage(db, null, projectId, MARCH, marchId, 10)],
    ["the reviewed-calls export", () => reviewedPage(db, null, projectId, MARCH, undefined, 10)],
    // The overview reads whole hours from the rollups and the partial hours at the edges from rows.
    [
      "the overview's requests",
      () => requestBuckets(db, projectId, "hour", new Date(MARCH.start.getTime() + 1_800_000), new Date(MARCH.end.getTime() - 1_800_000)),
    ],
    [
      "the overview's scores",
      () => scoreBuckets(db, projectId, "hour", new Date(MARCH.start.getTime() + 1_800_000), new Date(MARCH.end.getTime() - 1_800_000)),
    ],
  ])("Should read only March's partitions for %s", async (_, run) => {
    const reads = await partitionsRead(run);
    expect(reads.length).toBeGreaterThan(0);
    for (const partitions of reads) {
      for (const p of partitions) expect(MARCH_PARTITIONS).toContain(p);
    }
    // Not vacuous: the reads do reach March's rows.
    expect(reads.flat().filter((p) => MARCH_PARTITIONS.includes(p)).length).toBeGreaterThan(0);
  });

  it("Should read a request's detail in its own month only, found from its id", async () => {
    const reads = await partitionsRead(() => getRequest(db, null, projectId, marchId));
    // The id's time window probe, then the row and its scores at its exact time.
    expect(reads).toHaveLength(4);
    for (const partitions of reads) for (const p of partitions) expect(MARCH_PARTITIONS).toContain(p);
    const found = await getRequest(db, null, projectId, marchId);
    expect(found?.safety_scores).toHaveLength(SCORER_NAMES.length);
    expect(found?.safety_scores.find((s) => s.scorer_name === "content_safety")?.review?.verdict).toBe("confirmed");
  });

  it("Should read an open-ended page only in the months up to its cursor", async () => {
    const [anchor] = await sql<{ at: Date }>("SELECT created_at AS at FROM llm_requests WHERE id = $1", [marchId]);
    const reads = await partitionsRead(() => listRequestsKeyset(db, projectId, {}, { limit: 10, cursor: marchId }));
    // Everything before the anchor (the months before it, the default partition's older range), nothing after.
    const allowed = await partitionsOf(new Date(0), new Date(anchor!.at.getTime() + 1));
    for (const partitions of reads) for (const p of partitions) expect(allowed).toContain(p);
    expect(reads.flat()).not.toContain(`llm_requests_y${YEAR}m04`);
    expect(reads.flat()).not.toContain(`safety_scores_y${YEAR}m06`);
  });
});

describe("Monthly partitions: created ahead, and the default partition", () => {
  it("Should create this month's and the next three months' partitions when the sweep runs, moving the default partition's rows", async () => {
    const now = new Date();
    const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1));
    const suffix = `_y${ahead.getUTCFullYear()}m${String(ahead.getUTCMonth() + 1).padStart(2, "0")}`;
    // The furthest month's partitions go; a row dated then lands in the default partition (the API
    // refuses a future created_at; a clock running ahead is enough).
    await sql(`DROP TABLE IF EXISTS llm_requests${suffix}, safety_scores${suffix}`);
    const { projectId: project } = await newProject("partitions ahead");
    const later = new Date(ahead.getTime() + 5 * 86_400_000).toISOString();
    const [logged] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at) VALUES (gen_random_uuid(), $1, 'm', 'openai', '{}', $2) RETURNING id`,
      [project, later],
    );
    const [before] = await sql<{ part: string }>("SELECT tableoid::regclass::text AS part FROM llm_requests WHERE id = $1", [logged!.id]);
    expect(before!.part).toBe("llm_requests_default");

    expect((await api("/internal/sweep", { method: "POST", headers: internal })).status).toBe(200);

    for (let m = 0; m <= 3; m++) {
      const at = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + m, 1));
      const s = `_y${at.getUTCFullYear()}m${String(at.getUTCMonth() + 1).padStart(2, "0")}`;
      const present = await sql<{ name: string }>("SELECT to_regclass($1)::text AS name UNION ALL SELECT to_regclass($2)::text", [
        `public.llm_requests${s}`,
        `public.safety_scores${s}`,
      ]);
      expect(present.map((r) => r.name)).toEqual([`llm_requests${s}`, `safety_scores${s}`]);
    }
    const [after] = await sql<{ part: string }>("SELECT tableoid::regclass::text AS part FROM llm_requests WHERE id = $1", [logged!.id]);
    expect(after!.part).toBe(`llm_requests${suffix}`);
  });

  it("Should store a call dated before every month's partition in the default partition and read it back by id", async () => {
    const { key } = await newProject("partitions default");
    const res = await postLog(key, logBody({ created_at: "1980-02-03T04:05:06.789Z" }));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const [row] = await sql<{ part: string }>("SELECT tableoid::regclass::text AS part FROM llm_requests WHERE id = $1", [id]);
    expect(row!.part).toBe("llm_requests_default");
    const detail = await api(`/api/requests/${id}`, { headers: { "X-Service-Key": key } });
    expect(detail.status).toBe(200);
    expect(((await detail.json()) as { created_at: string }).created_at).toBe("1980-02-03T04:05:06.789Z");
  });

  it("Should store a redelivered batch's calls once, partition key and all", async () => {
    const { key, projectId: project } = await newProject("partitions redelivery");
    const keyHash = await hashKey(key);
    const entries = [1, 2].map((i) => ({
      id: uuidv7(),
      keyHash,
      record: { ...(logBody() as unknown as LogRecord), metadata: {}, created_at: new Date(Date.UTC(YEAR, 2, 10 + i)) },
    }));
    const first = await ingestBatch(db, entries, DEFAULT_TIER_LIMITS, null);
    const again = await ingestBatch(db, entries, DEFAULT_TIER_LIMITS, null);
    expect(first.map((r) => r.outcome)).toEqual(["stored", "stored"]);
    expect(again.map((r) => r.outcome)).toEqual(["duplicate", "duplicate"]);
    const [n] = await sql<{ n: number }>("SELECT count(*)::int AS n FROM llm_requests WHERE project_id = $1", [project]);
    expect(n!.n).toBe(2);
  });
});
