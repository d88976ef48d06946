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
 *   is read back, and a retried batch still stores a call once;
 * - every statement that names requests by id (the scorer's load, cost and score writes, the
 *   scoring-state updates, the sweep's claim, ingest's duplicate check, the re-score walk, the
 *   score list by request, the session reads) reads only the months of those requests (seeded in
 *   three months), with their known `created_at` or, without it, their ids' time.
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
import { type RequestRef, requestIdAt } from "../../src/db/request-time";
import { callScores, claimStaleRequests, loadCalls, markNotEnqueued, saveCosts, saveScores } from "../../src/db/request-scoring";
import { createRescoreJob, nextChunk } from "../../src/db/rescore";
import { getSessionCalls, listSessions } from "../../src/db/sessions";
import { scoreCall } from "../../src/policy/apply";
import { reviewScore } from "../../src/db/reviews";
import { pointRowsAtObjects } from "../../src/db/body-objects";
import { INLINE } from "../../src/bodies/write";
import { loadDeliveries } from "../../src/db/alerts";
import { PRICE_TABLE_VERSION } from "../../src/pricing/price-call";
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
  return plannedPartitions(captured.splice(0));
}

/** The partitions of the two tables each of `statements` scans, from its `EXPLAIN (FORMAT JSON)`. */
async function plannedPartitions(statements: readonly { query: string; params: unknown[] }[]): Promise<string[][]> {
  const out: string[][] = [];
  for (const { query, params } of statements) {
    const [row] = await sql<{ "QUERY PLAN": { Plan: PlanNode }[] }>(`EXPLAIN (FORMAT JSON) ${query}`, params);
    const relations = scanned(row!["QUERY PLAN"][0]!.Plan, new Set());
    out.push([...relations].filter((r) => /^(llm_requests|safety_scores)_(y\d{4}m\d{2}|default)$/.test(r)).sort());
  }
  return out;
}

/**
 * Runs `run` and checks that every statement it sent about the two tables (a transaction's
 * BEGIN and COMMIT are left out) reads only partitions of `months` (of 1997), and that they do
 * read some. Returns the partitions read, per statement.
 */
async function expectOnlyMonths(months: readonly number[], run: () => Promise<unknown>): Promise<string[][]> {
  const allowed = months.flatMap((m) => ["llm_requests", "safety_scores"].map((t) => `${t}_y${YEAR}m${String(m).padStart(2, "0")}`));
  captured = [];
  await run();
  const reads = await plannedPartitions(captured.splice(0).filter((c) => /llm_requests|safety_scores/.test(c.query)));
  expect(reads.length).toBeGreaterThan(0);
  for (const partitions of reads) for (const p of partitions) expect(allowed).toContain(p);
  expect(reads.flat().length).toBeGreaterThan(0);
  return reads;
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

describe("Monthly partitions: statements naming requests by id read only those requests' months", () => {
  /** Months of the requests named here: January, April and June 1997. */
  const SPREAD = [1, 4, 6];
  /** A request of each of those months (the 6th of 40, four days into the month), with its `created_at` text. */
  let named: { id: string; created_at: string }[] = [];

  beforeAll(async () => {
    named = [];
    for (const m of SPREAD) {
      const [row] = await sql<{ id: string; created_at: string }>(
        "SELECT id, created_at::text AS created_at FROM llm_requests WHERE project_id = $1 AND created_at >= $2 ORDER BY created_at LIMIT 1 OFFSET 5",
        [projectId, month(m).toISOString()],
      );
      named.push(row!);
    }
  });

  it("Should load the calls to score in their months, by their created_at or by their ids' time", async () => {
    await expectOnlyMonths(SPREAD, () => loadCalls(db, null, named));
    const reads = await expectOnlyMonths(SPREAD, () =>
      loadCalls(
        db,
        null,
        named.map((n) => ({ id: n.id })),
      ),
    );
    // One statement: every id was found inside its window.
    expect(reads).toHaveLength(1);
    expect((await loadCalls(db, null, named)).map((c) => c.id).sort()).toEqual(named.map((n) => n.id).sort());
  });

  it("Should find a call whose id's time is far from its created_at by a second read of every month", async () => {
    const [row] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state)
       VALUES ($1, $2, 'm', 'openai', '{}', $3, 'scored') RETURNING id`,
      [requestIdAt(new Date(Date.UTC(YEAR, 1, 14))), projectId, new Date(Date.UTC(YEAR, 4, 14)).toISOString()],
    );
    const reads = await partitionsRead(() => loadCalls(db, null, [{ id: row!.id }]));
    // The window (February) first, then the fallback.
    expect(reads[0]!.every((p) => p.endsWith(`_y${YEAR}m02`))).toBe(true);
    expect(reads).toHaveLength(2);
    const [call] = await loadCalls(db, null, [{ id: row!.id }]);
    expect(call?.created_at.startsWith(`${YEAR}-05-14`)).toBe(true);
    await sql("DELETE FROM llm_requests WHERE id = $1", [row!.id]);
  });

  it("Should write scores, costs and the scoring state in the calls' months only", async () => {
    const calls = await loadCalls(db, null, named);
    await expectOnlyMonths(SPREAD, () =>
      saveScores(
        db,
        calls.map((call) => callScores(call, scoreCall(call, call.policy))),
      ),
    );
    await expectOnlyMonths(SPREAD, () =>
      saveCosts(
        db,
        calls.map((c) => ({ id: c.id, created_at: c.created_at, cost: { cost_usd: 0.002, price_version: PRICE_TABLE_VERSION } })),
      ),
    );
    await expectOnlyMonths(SPREAD, () => markNotEnqueued(db, named));
    await expectOnlyMonths(SPREAD, () =>
      markNotEnqueued(
        db,
        named.map((n) => ({ id: n.id })),
      ),
    );
    // The scores were stored (six current ones a call), at their calls' time.
    const [stored] = await sql<{ n: number }>(
      "SELECT count(*)::int AS n FROM safety_scores s JOIN llm_requests r ON r.id = s.request_id AND r.created_at = s.created_at WHERE s.request_id = ANY($1::uuid[]) AND s.superseded_at IS NULL",
      [named.map((n) => n.id)],
    );
    expect(stored!.n).toBe(named.length * SCORER_NAMES.length);
    await sql("UPDATE llm_requests SET scoring_state = 'scored' WHERE id = ANY($1::uuid[])", [named.map((n) => n.id)]);
  });

  it("Should review a score and load its alert deliveries in the month the score's id points to", async () => {
    // Scores stored by saveScores (the test before) carry their request's time in their ids.
    const scores = await sql<{ id: string; request_id: string }>(
      "SELECT id, request_id FROM safety_scores WHERE request_id = ANY($1::uuid[]) AND scorer_name = 'content_safety' AND superseded_at IS NULL",
      [named.map((n) => n.id)],
    );
    expect(scores).toHaveLength(named.length);
    const june = scores.find((s) => s.request_id === named[2]!.id)!;
    const reads = await expectOnlyMonths([6], () => reviewScore(db, projectId, june.id, "confirmed", "partitions"));
    expect(reads).toHaveLength(1);
    expect((await reviewScore(db, projectId, june.id, "false_positive", "partitions"))?.verdict).toBe("false_positive");

    const [endpoint] = await sql<{ id: string }>(
      "INSERT INTO alert_endpoints (id, project_id, url, min_score, format, secret) VALUES (gen_random_uuid(), $1, 'https://example.com/hook', 1, 'standard', 's') RETURNING id",
      [projectId],
    );
    const deliveries = await sql<{ id: string }>(
      "INSERT INTO alert_deliveries (id, endpoint_id, project_id, score_id, event_type, state) SELECT gen_random_uuid(), $1, $2, id, 'score.unsafe', 'dead' FROM unnest($3::uuid[]) AS id RETURNING id",
      [endpoint!.id, projectId, scores.map((s) => s.id)],
    );
    await expectOnlyMonths(SPREAD, () =>
      loadDeliveries(
        db,
        deliveries.map((d) => d.id),
      ),
    );
    const loaded = await loadDeliveries(
      db,
      deliveries.map((d) => d.id),
    );
    expect(loaded.map((d) => d.score?.request_id).sort()).toEqual(named.map((n) => n.id).sort());
    expect(loaded.every((d) => d.score?.model === "gpt-4o-mini")).toBe(true);
    await sql("DELETE FROM alert_endpoints WHERE id = $1", [endpoint!.id]);
  });

  it("Should claim stale requests and mark them queued in their own months", async () => {
    await sql("UPDATE llm_requests SET scoring_state = 'pending', enqueued_at = NULL WHERE id = ANY($1::uuid[])", [named.map((n) => n.id)]);
    let claimed: RequestRef[] = [];
    captured = [];
    claimed = await claimStaleRequests(db, 3600, named.length);
    const update = captured.splice(0).filter((c) => /^update/i.test(c.query.trim()));
    expect(update).toHaveLength(1);
    // The 1997 calls are the oldest stale ones: claimed, with their created_at.
    expect(claimed).toEqual(named);
    const [reads] = await plannedPartitions(update);
    expect(reads!.length).toBeGreaterThan(0);
    for (const p of reads!) expect(SPREAD.map((m) => `llm_requests_y${YEAR}m0${m}`)).toContain(p);
    await sql("UPDATE llm_requests SET scoring_state = 'scored' WHERE id = ANY($1::uuid[])", [named.map((n) => n.id)]);
  });

  it("Should look for records already stored only in the months of a batch's created_at", async () => {
    const { key } = await newProject("partitions batch months");
    const keyHash = await hashKey(key);
    const entries = [2, 3, 5].map((m) => {
      const at = new Date(Date.UTC(YEAR, m - 1, 17));
      return { id: requestIdAt(at), keyHash, record: { ...(logBody() as unknown as LogRecord), metadata: {}, created_at: at } };
    });
    await expectOnlyMonths([2, 3, 5], () => ingestBatch(db, entries, DEFAULT_TIER_LIMITS, null));
    const again = await ingestBatch(db, entries, DEFAULT_TIER_LIMITS, null);
    expect(again.map((r) => r.outcome)).toEqual(["duplicate", "duplicate", "duplicate"]);
    expect(again.map((r) => r.created_at?.slice(0, 10))).toEqual([`${YEAR}-02-17`, `${YEAR}-03-17`, `${YEAR}-05-17`]);
  });

  it("Should walk a re-scoring job only in the months from its cursor to its end", async () => {
    const job = await createRescoreJob(db, projectId, MARCH.start, MARCH.end);
    await expectOnlyMonths([3], () => nextChunk(db, job, 10));
    const chunk = await nextChunk(db, job, 10);
    expect(chunk).toHaveLength(10);
    await expectOnlyMonths([3], () => loadCalls(db, null, chunk));
    await sql("UPDATE rescore_jobs SET state = 'done' WHERE id = $1", [job.id]);
  });

  it("Should read the rows a text search found in their months only", async () => {
    // Without a range the search itself covers every month; the page's newest rows are June's.
    const reads = await partitionsRead(() => listRequestsKeyset(db, projectId, { q: "partitions" }, { limit: 5 }));
    const rowsRead = reads.at(-1)!;
    expect(rowsRead.length).toBeGreaterThan(0);
    for (const p of rowsRead) expect([`llm_requests_y${YEAR}m06`, `safety_scores_y${YEAR}m06`]).toContain(p);
    const { items } = await listRequestsKeyset(db, projectId, { q: "partitions" }, { limit: 5 });
    expect(items).toHaveLength(5);
  });

  it("Should read a request's scores by request id in its month only", async () => {
    const reads = await expectOnlyMonths([3], () => listScores(db, projectId, { request_id: marchId }, { page: 1, page_size: 10 }));
    // The request's time, then its scores.
    expect(reads).toHaveLength(2);
    const { items } = await listScores(db, projectId, { request_id: marchId }, { page: 1, page_size: 10 });
    expect(items).toHaveLength(SCORER_NAMES.length);
  });

  it("Should point calls whose bodies moved to R2 at their objects in the calls' months only", async () => {
    // Inline placements: the rows keep their bodies; the statement is what is checked.
    await expectOnlyMonths(SPREAD, () =>
      pointRowsAtObjects(
        db,
        named.map((n) => ({ ...INLINE, ...n })),
        named.at(-1)!.id,
        [projectId],
      ),
    );
  });

  it("Should read the scores of a reviewed-calls page in its rows' months only", async () => {
    // No range: the page itself covers every month; its scores are read where its rows are.
    const reads = await partitionsRead(() => reviewedPage(db, null, projectId, {}, undefined, 10));
    const page = await reviewedPage(db, null, projectId, {}, undefined, 10);
    expect(page.length).toBeGreaterThan(0);
    const months = [...new Set(page.map((r) => r.created_at.toISOString().slice(5, 7)))];
    const scoresRead = reads.at(-1)!;
    expect(scoresRead.length).toBeGreaterThan(0);
    for (const p of scoresRead) expect(months.map((m) => `safety_scores_y${YEAR}m${m}`)).toContain(p);
    expect(page.every((r) => r.scores.length === SCORER_NAMES.length)).toBe(true);
  });

  it("Should read sessions only in their range's months", async () => {
    await expectOnlyMonths([3], () => listSessions(db, projectId, MARCH, { page: 1, page_size: 10 }));
    await expectOnlyMonths([3], () => getSessionCalls(db, projectId, "conv", MARCH));
  });
});
