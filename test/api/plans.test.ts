import { env } from "cloudflare:test";
/**
 * Every list and aggregate of the dashboard is served by an index: the statements the API
 * builds (captured from the real query functions through drizzle's logger) are EXPLAINed on a
 * table seeded with generate_series, large enough that the planner prefers an index over a
 * sequential scan. Two projects of equal size, so no filter selects the whole table. The overview
 * reads the hourly rollups (src/db/rollups.ts) by their primary keys, and raw rows only for the
 * partial hours at a range's edges.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workersSocket } from "../../src/db/driver/client";
import type { Db } from "../../src/db/driver/client";
import { exportPage } from "../../src/db/request-export";
import { countRequests, listRequestsKeyset, neighbours } from "../../src/db/requests";
import { listScores, summarizeScores } from "../../src/db/scores";
import type { RequestFilters } from "../../src/db/request-filters";
import { requestBuckets, scoreBuckets } from "../../src/db/stats";
import { searchIds } from "../../src/db/text-search";
import { SCORER_NAMES } from "../../src/enums";
import { newProject, sql, testEnv } from "./helpers";

/** Requests per project; scores are six per request. */
const ROWS = 20_000;
const T0 = Date.UTC(2026, 9, 1);
/** The sixth day of the seeded rows. */
const DAY_6 = { start: new Date(T0 + 5 * 86_400_000), end: new Date(T0 + 6 * 86_400_000) };

let pool: pg.Pool;
let captured: { query: string; params: unknown[] }[] = [];
let db: Db;
let projectId = "";
let anchor = "";

/** Seeds `ROWS` requests (5% anthropic, 2% errors, one in 1000 mentions "zebra") and their six scores (3% unsafe). */
async function seed(project: string) {
  await sql(
    `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms, cost_usd, scoring_state)
     SELECT gen_random_uuid(), $1, 'gpt-4o-mini', CASE WHEN i % 20 = 0 THEN 'anthropic' ELSE 'openai' END,
            jsonb_build_object('messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content',
              CASE WHEN i % 1000 = 7 THEN 'tell me about the zebra ' ELSE 'write a haiku about autumn ' END || i))),
            '{"choices":[{"message":{"role":"assistant","content":"leaves fall quietly"}}]}',
            CASE WHEN i % 50 = 0 THEN '{"status":"error"}'::jsonb ELSE '{"status":"success"}'::jsonb END,
            to_timestamp($3::double precision / 1000) + i * interval '2 minutes', 100 + i % 900, 0.0001, 'scored'
       FROM generate_series(1, $2::int) AS i`,
    [project, ROWS, T0],
  );
  await sql(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), r.id, r.project_id, n.name,
            CASE WHEN hashtext(r.id::text || n.name) % 100 < 3 THEN 5 ELSE 1 END,
            CASE WHEN hashtext(r.id::text || n.name) % 100 < 3 THEN 'unsafe' ELSE 'safe' END, 'seed', r.created_at
       FROM llm_requests r CROSS JOIN unnest(ARRAY['content_safety','pii_detection','jailbreak_detection','data_poisoning','vector_weakness','prompt_injection']) AS n(name)
      WHERE r.project_id = $1`,
    [project],
  );
}

beforeAll(async () => {
  const [a, b] = [await newProject("plans a"), await newProject("plans b")];
  projectId = a.projectId;
  await seed(a.projectId);
  await seed(b.projectId);
  const [s] = await sql<{ id: string }>("SELECT id FROM safety_scores WHERE project_id = $1 AND score_label = 'unsafe' LIMIT 1", [projectId]);
  await sql(
    `INSERT INTO score_reviews (score_id, request_id, project_id, scorer_name, verdict, reviewer, score_value, score_label, scorer_version, policy_version)
     SELECT id, request_id, project_id, scorer_name, 'false_positive', 't', score_value, score_label, scorer_version, policy_version FROM safety_scores WHERE id = $1`,
    [s!.id],
  );
  // Seeded by INSERT ... SELECT, not by the API's writers: fill the hourly rollups from the rows.
  await sql("SELECT sightline_rebuild_rollups()");
  // Twenty more projects with 30 days of rollup rows, so the rollup tables hold many projects
  // as in production (with two, reading a whole table beats its index).
  await sql(
    `WITH p AS (INSERT INTO projects (id, name) SELECT gen_random_uuid(), 'plans filler ' || i FROM generate_series(1, 20) AS i RETURNING id),
     h AS (SELECT p.id, to_timestamp($1::double precision / 1000) + k * interval '1 hour' AS hour FROM p CROSS JOIN generate_series(0, 719) AS k),
     r AS (INSERT INTO request_rollups SELECT id, hour, 1, 0, 0, 0, 0, 100, sightline_latency_histogram(ARRAY[100]) FROM h)
     INSERT INTO score_rollups SELECT id, hour, n, 1, 0, 0, 1, 0, 0, 0, 0 FROM h CROSS JOIN unnest($2::text[]) AS n`,
    [T0, SCORER_NAMES],
  );
  await sql("VACUUM ANALYZE request_rollups");
  await sql("VACUUM ANALYZE score_rollups");
  await sql("VACUUM ANALYZE llm_requests");
  await sql("VACUUM ANALYZE safety_scores");
  await sql("VACUUM ANALYZE score_reviews");
  const [mid] = await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at DESC LIMIT 1 OFFSET 500", [projectId]);
  anchor = mid!.id;
  pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 1 });
  db = drizzle({ client: pool, logger: { logQuery: (query, params) => captured.push({ query, params }) } }) as unknown as Db;
}, 120_000);

afterAll(async () => {
  await pool?.end();
});

/** Runs `run` (one or more API queries) and returns the plans of the statements it sent. */
async function plansOf(run: () => Promise<unknown>): Promise<string> {
  captured = [];
  await run();
  const plans: string[] = [];
  for (const { query, params } of captured) {
    const rows = await sql<{ "QUERY PLAN": string }>(`EXPLAIN ${query}`, params);
    plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
  }
  return plans.join("\n---\n");
}

/**
 * The partitions of llm_requests and safety_scores holding the seeded rows that a plan reads by
 * sequential scan. Monthly partitions (docs/storage.md): a month's partition holding a few rows
 * of other test files may be read by a sequential scan; the seeded ones never.
 */
async function seqScannedSeeded(plan: string): Promise<string[]> {
  const seeded = await sql<{ name: string }>(
    `SELECT DISTINCT tableoid::regclass::text AS name FROM llm_requests WHERE project_id = $1
     UNION SELECT DISTINCT tableoid::regclass::text FROM safety_scores WHERE project_id = $1`,
    [projectId],
  );
  const scanned = new Set([...plan.matchAll(/Seq Scan on (\w+)/g)].map((m) => m[1]!));
  return seeded.map((r) => r.name).filter((name) => scanned.has(name));
}

const list = (f: RequestFilters, cursor?: string) => () => listRequestsKeyset(db, projectId, f, { limit: 50, cursor });

describe("Query plans of the dashboard routes", () => {
  it.each<[string, () => () => Promise<unknown>, RegExp]>([
    ["first list page", () => list({}), /Index Scan using llm_requests_project_created_idx/],
    ["next list page (cursor)", () => list({}, anchor), /Index Cond: .*created_at, .*id\) < /s],
    ["provider filter", () => list({ provider: "anthropic" }), /Index Scan using llm_requests_project_provider_created_idx/],
    ["status=error", () => list({ status: "error" }), /Index Scan using llm_requests_project_errors_created_idx/],
    // A rare word: the bounded walk of the newest rows, then the GIN index.
    [
      "text search, rare word",
      () => () => searchIds(db, projectId, { q: "zebra" }, 50),
      /Index Scan using llm_requests_project_created_idx[\s\S]*Bitmap Index Scan on llm_requests_search_idx/,
    ],
    ["text search, common word", () => () => searchIds(db, projectId, { q: "autumn" }, 50), /Index Scan using llm_requests_project_created_idx/],
    ["text search count", () => () => countRequests(db, projectId, { q: "zebra" }), /Bitmap Index Scan on llm_requests_search_idx/],
    ["label filter", () => list({ labels: { content_safety: "unsafe" } }), /safety_scores_current_key|safety_scores_request_scorer_version_key/],
    ["reviewed filter", () => list({ reviewed: "false_positive" }), /score_reviews_project_verdict_request_idx|Index Scan using llm_requests_pkey/],
    ["count", () => () => countRequests(db, projectId, {}), /Index Only Scan using llm_requests_project_\w+_idx/],
    ["count of errors", () => () => countRequests(db, projectId, { status: "error" }), /llm_requests_project_errors_created_idx/],
    // One statement: the page by the list index, then its current scores' chips from the
    // current-score key alone (its INCLUDE columns hold the value and label, migration 0024).
    [
      "export page",
      () => () => exportPage(db, env.BODIES, projectId, {}, anchor, 1000),
      /Index Scan using llm_requests_project_created_idx[\s\S]*Index Only Scan using safety_scores_current_key/,
    ],
    ["neighbours", () => () => neighbours(db, projectId, anchor, {}), /Index (Only )?Scan (Backward )?using llm_requests_project_created_idx/],
    // The score list (GET /api/scores) and its summary over a day: one project index of current
    // scores gives the page's order and holds the scorer and label, so their filters stay in it;
    // the summary's mean reads the score from the rows it finds. (Without a range the count
    // reads half of this two-project table, by a sequential scan.)
    [
      "score list, first page",
      () => () => listScores(db, projectId, DAY_6, { page: 1, page_size: 50 }),
      /Limit[\s\S]*Index Scan using safety_scores_project_current_idx/,
    ],
    [
      "score list by scorer and label",
      () => () => listScores(db, projectId, { ...DAY_6, scorer_name: "content_safety", label: "unsafe" }, { page: 1, page_size: 50 }),
      /Index (Only )?Scan using safety_scores_project_current_idx[\s\S]*Index Cond: .*scorer_name = /,
    ],
    [
      "score summary (a day)",
      () => () => summarizeScores(db, projectId, DAY_6),
      /(Index Only Scan (Backward )?using|Bitmap Index Scan on) safety_scores_project_current_idx/,
    ],
    // The overview reads whole hours from the hourly rollups' primary keys...
    [
      "timeseries requests (30 days)",
      () => () => requestBuckets(db, projectId, "day", new Date(T0), new Date(T0 + 30 * 86_400_000)),
      /Index Scan (using|on) request_rollups_pkey/,
    ],
    [
      "timeseries scores (30 days)",
      () => () => scoreBuckets(db, projectId, "day", new Date(T0), new Date(T0 + 30 * 86_400_000)),
      /Index Scan (using|on) score_rollups_pkey/,
    ],
    // ...and the partial hours at the edges of a range from the raw rows' covering indexes.
    [
      "timeseries requests with partial edges",
      () => () => requestBuckets(db, projectId, "hour", new Date(T0 + 1_800_000), new Date(T0 + 86_400_000 + 1_800_000)),
      /Index Scan (using|on) request_rollups_pkey[\s\S]*Index Only Scan using llm_requests_project_created_idx[\s\S]*Index Only Scan using llm_requests_project_created_idx/,
    ],
    [
      "timeseries scores with partial edges",
      () => () => scoreBuckets(db, projectId, "hour", new Date(T0 + 1_800_000), new Date(T0 + 86_400_000 + 1_800_000)),
      /Index Scan (using|on) score_rollups_pkey[\s\S]*Index Only Scan (Backward )?using safety_scores_project_current_idx/,
    ],
  ])("Should serve %s from an index, never a sequential scan of llm_requests rows", async (_, make, expected) => {
    const plan = await plansOf(make());
    expect(plan).toMatch(expected);
    expect(await seqScannedSeeded(plan)).toEqual([]);
    expect(plan).not.toMatch(/Seq Scan on (request|score)_rollups/);
  });
});
