import { env } from "cloudflare:test";
/**
 * The export's one-statement page (`exportPage`: the row as one JSON array, the score chips
 * aggregated in SQL) gives exactly the values the separate reads give: the detail's columns and
 * bodies (`getRequest`, drizzle's own column mapping) and the list's score chips
 * (`listRequestsKeyset`, a correlated `json_agg`). Rows are chosen to stress the conversions:
 * microsecond timestamps, costs with ten decimals, Unicode and control characters, "__proto__"
 * keys, large numbers in the bodies, requests without scores and reviewed scores.
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, workersSocket } from "../../src/db/driver/client";
import { exportPage, exportRows } from "../../src/db/request-export";
import { getRequest, listRequestsKeyset } from "../../src/db/requests";
import { newProject, sql, testEnv } from "./helpers";

let pool: pg.Pool;
let db: Db;
let projectId = "";

/** Bodies as JSON text (stored as jsonb): numbers beyond a double's precision stay exact in the database. */
const BODIES = [
  '{"messages": [{"role": "user", "content": "plain"}]}',
  String.raw`{"messages": [{"role": "user", "content": "tab\there \"quoted\" \\ back\u0001 \u2028 \ud83d\ude00 é"}], "n": 12345678901234567890, "f": 1.5e-7, "z": -0, "d": 1.10}`,
  '{"__proto__": {"x": "a@example.com"}, "10": 1, "a": [null, true, {"2": "b"}]}',
  "[]",
  '"a bare string body"',
];

beforeAll(async () => {
  ({ projectId } = await newProject("export page"));
  const T0 = Date.UTC(2026, 9, 1);
  for (let i = 0; i < 23; i++) {
    await sql(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, latency_ms, cost_usd,
         prompt_tokens, completion_tokens, scoring_state)
       VALUES (gen_random_uuid(), $1, $2, 'openai', $3::jsonb, $4::jsonb, $5::jsonb, to_timestamp($6::double precision / 1e6), $7, $8, $9, $10, $11)`,
      [
        projectId,
        i % 4 === 0 ? 'mödel "x",\n1' : "gpt-4o-mini",
        BODIES[i % BODIES.length],
        i % 3 === 0 ? null : JSON.stringify({ choices: [{ message: { content: `answer ${i} 4111 1111 1111 1111` } }] }),
        JSON.stringify(i % 5 === 0 ? { status: "error", error: { message: "429" } } : { status: "success" }),
        // Microseconds: the millisecond truncation of the Date must match drizzle's.
        (T0 + i * 3_600_037) * 1000 + ((i * 7919) % 1000),
        100 + i,
        i % 2 === 0 ? "1234567890.0123456789" : `0.${String(i).padStart(10, "0")}`,
        i,
        2 * i,
        i % 6 === 0 ? "pending" : "scored",
      ],
    );
  }
  // Scores for all but the pending requests; one reviewed.
  await sql(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), r.id, r.project_id, n.name, CASE WHEN n.k = 3 THEN NULL ELSE n.k % 5 + 1 END,
            CASE WHEN n.k = 3 THEN 'unscored' ELSE 'safe' END, 'seed', r.created_at
       FROM llm_requests r CROSS JOIN unnest(ARRAY['pii_detection','content_safety','vector_weakness','data_poisoning']) WITH ORDINALITY AS n(name, k)
      WHERE r.project_id = $1 AND r.scoring_state = 'scored'`,
    [projectId],
  );
  await sql(
    `INSERT INTO score_reviews (score_id, request_id, project_id, scorer_name, verdict, reviewer, score_value, score_label, scorer_version, policy_version)
     SELECT id, request_id, project_id, scorer_name, 'confirmed', 't', score_value, score_label, scorer_version, policy_version
       FROM safety_scores WHERE project_id = $1 ORDER BY id LIMIT 1`,
    [projectId],
  );
  pool = new pg.Pool({ connectionString: testEnv.TEST_DATABASE_URL, stream: workersSocket, max: 1 });
  db = drizzle({ client: pool }) as unknown as Db;
});

afterAll(async () => {
  await pool?.end();
});

describe("exportPage", () => {
  it("Should give, page by page, every request with the detail's values and the list's score chips", async () => {
    const rows = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await exportPage(db, env.BODIES, projectId, {}, cursor, 5);
      rows.push(...page);
      if (page.length < 5) break;
      cursor = page[page.length - 1]!.id;
    }
    const list = await listRequestsKeyset(db, projectId, {}, { limit: 100 });
    expect(rows.map((r) => r.id)).toEqual(list.items.map((r) => r.id));
    expect(rows).toHaveLength(23);
    for (const [i, row] of rows.entries()) {
      const { safety_scores: _scores, score_history: _history, project_id: _project, ...detail } = (await getRequest(db, env.BODIES, projectId, row.id))!;
      // The masking hint and the keyset anchor are the export's own (src/export/stream.ts): not detail fields.
      const { scores, pii_free_version: _hint, anchor, ...rest } = row;
      expect(anchor.id).toBe(row.id);
      expect(rest).toEqual(detail);
      // Same text once serialised: key order, -0, large numbers, "__proto__" keys.
      expect(JSON.stringify(rest)).toBe(JSON.stringify(detail));
      expect(JSON.stringify(scores)).toBe(JSON.stringify(list.items[i]!.scores));
    }
    // Continuing by the anchor (the export's stream, no lookup of the cursor's time) gives the same pages.
    const byAnchor: string[] = [];
    let last: (typeof rows)[number]["anchor"] | undefined;
    for (;;) {
      const page = await exportRows(db, projectId, { older: last }, 5);
      byAnchor.push(...page.map((r) => r.id));
      if (page.length < 5) break;
      last = page[page.length - 1]!.anchor;
    }
    expect(byAnchor).toEqual(rows.map((r) => r.id));
    // Past the last row: an empty page (the aggregate of no rows is NULL).
    expect(await exportPage(db, env.BODIES, projectId, {}, rows[rows.length - 1]!.id, 5)).toEqual([]);
    expect(rows.some((r) => r.scores.length === 0)).toBe(true);
    expect(rows.some((r) => r.scores.some((s) => s.verdict === "confirmed"))).toBe(true);
  });
});
