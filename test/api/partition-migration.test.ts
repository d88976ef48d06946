/**
 * migrations/0020_monthly_partitions.sql on a database that already holds calls: a fresh
 * database gets migrations 0000-0019 (0019: bodies in R2) (split at drizzle-kit's statement breakpoints, as its
 * migrator does), then rows and a column another migration could have added before this one
 * (`bodies_in_r2` adds columns to llm_requests), then 0020. Every row and column is carried,
 * scores move to their request's time, and the keys, indexes and partitions are in place.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { workersSocket } from "../../src/db/driver/client";
import { sql, testEnv } from "./helpers";

declare global {
  interface ImportMeta {
    /** Vite's glob import (https://vite.dev/guide/features#glob-import), which the workers pool's bundler resolves. */
    glob(pattern: string, options: { query: string; import: string; eager: true }): Record<string, unknown>;
  }
}

const MIGRATIONS = import.meta.glob("../../migrations/*.sql", { query: "?raw", import: "default", eager: true }) as Record<string, string>;
const DATABASE = "sightline_partition_migration";

/** The statements of migration `index` (0-based), as drizzle-kit's migrator splits them. */
function statements(index: number): string[] {
  const [, text] = Object.entries(MIGRATIONS).find(([path]) => path.includes(`/${String(index).padStart(4, "0")}_`))!;
  return text.split("--> statement-breakpoint").filter((s) => s.trim() !== "");
}

let client: pg.Client;

beforeAll(async () => {
  await sql(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
  await sql(`CREATE DATABASE ${DATABASE}`);
  const url = new URL(testEnv.TEST_DATABASE_URL);
  url.pathname = `/${DATABASE}`;
  client = new pg.Client({ connectionString: url.toString(), stream: workersSocket });
  await client.connect();
  for (let i = 0; i <= 19; i++) for (const s of statements(i)) await client.query(s);
  // A column added to llm_requests by a migration before this one.
  await client.query("ALTER TABLE llm_requests ADD COLUMN body_ref text");
  await client.query("INSERT INTO projects (id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'migrated')");
  // Calls over the last 40 months (older than 25 months: the default partition) and one far back.
  await client.query(
    `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state, body_ref)
     SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001'::uuid, 'm', 'openai',
            jsonb_build_object('messages', jsonb_build_array(jsonb_build_object('role', 'user', 'content', 'call ' || g))),
            now() - make_interval(days => g * 30), 'scored', 'r2:' || g
       FROM generate_series(0, 40) AS g
     UNION ALL SELECT gen_random_uuid(), '00000000-0000-4000-8000-000000000001'::uuid, 'm', 'openai', '{}'::jsonb, '1990-05-05'::timestamptz, 'pending', NULL`,
  );
  // Scores made a little after their call, as the scorer did before this migration.
  await client.query(
    `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
     SELECT gen_random_uuid(), r.id, r.project_id, 'content_safety', 1, 'safe', 't', r.created_at + interval '3 seconds' FROM llm_requests r`,
  );
  for (const s of statements(20)) await client.query(s);
}, 120_000);

afterAll(async () => {
  await client?.end();
  await sql(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
});

describe("migration 0020_monthly_partitions", () => {
  it("Should carry every row and column, the added one included, into partitioned tables", async () => {
    const { rows: requests } = await client.query<{ n: number; refs: number; previews: number }>(
      "SELECT count(*)::int AS n, count(body_ref)::int AS refs, count(preview)::int AS previews FROM llm_requests",
    );
    expect(requests[0]).toEqual({ n: 42, refs: 41, previews: 41 });
    const { rows: kinds } = await client.query<{ relname: string; relkind: string }>(
      "SELECT relname, relkind::text FROM pg_class WHERE relname IN ('llm_requests', 'safety_scores') ORDER BY relname",
    );
    expect(kinds).toEqual([
      { relname: "llm_requests", relkind: "p" },
      { relname: "safety_scores", relkind: "p" },
    ]);
    // The old rows' search document is computed again in the new table.
    const { rows: found } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM llm_requests WHERE search_tsv @@ to_tsquery('simple', 'call')");
    expect(found[0]!.n).toBe(41);
  });

  it("Should move each score to its request's time, so both sit in the same month's partition", async () => {
    const { rows } = await client.query<{ n: number; same: number; same_month: number }>(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE s.created_at = r.created_at)::int AS same,
              count(*) FILTER (WHERE substr(s.tableoid::regclass::text, 14) = substr(r.tableoid::regclass::text, 13))::int AS same_month
         FROM safety_scores s JOIN llm_requests r ON r.id = s.request_id`,
    );
    expect(rows[0]).toEqual({ n: 42, same: 42, same_month: 42 });
  });

  it("Should give months from the oldest kept one to three ahead, the rest in the default partition, with keys and named indexes", async () => {
    const { rows: parts } = await client.query<{ name: string }>(
      "SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'llm_requests'::regclass ORDER BY 1",
    );
    // 25 months back, this one, 3 ahead, and the default partition.
    expect(parts).toHaveLength(25 + 1 + 3 + 1);
    expect(parts[0]!.name).toBe("llm_requests_default");
    const { rows: old } = await client.query<{ n: number }>("SELECT count(*)::int AS n FROM llm_requests_default");
    expect(old[0]!.n).toBeGreaterThanOrEqual(15);
    const { rows: keys } = await client.query<{ def: string }>(
      `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid IN ('llm_requests'::regclass, 'safety_scores'::regclass) AND contype IN ('p', 'f') ORDER BY conrelid::regclass::text, contype`,
    );
    expect(keys.map((k) => k.def)).toEqual([
      "FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE",
      "PRIMARY KEY (id, created_at)",
      "FOREIGN KEY (project_id) REFERENCES projects(id) ON DELETE CASCADE",
      "PRIMARY KEY (id, created_at)",
    ]);
    const { rows: unique } = await client.query<{ def: string }>(
      "SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indrelid = 'safety_scores'::regclass AND indisunique AND NOT indisprimary ORDER BY 1",
    );
    expect(unique.map((u) => u.def.replace(/^.* USING btree /, ""))).toEqual([
      "(request_id, scorer_name, created_at) WHERE (superseded_at IS NULL)",
      "(request_id, scorer_name, scorer_version, policy_version, created_at)",
    ]);
    // Every index of the parent (the primary key and eight more, 0019's body_key index among them) has its partition's copy, named after it.
    const { rows: named } = await client.query<{ parent: number; child: number }>(
      `SELECT (SELECT count(*)::int FROM pg_indexes WHERE tablename = 'llm_requests') AS parent,
              (SELECT count(*)::int FROM pg_indexes WHERE tablename = 'llm_requests_default' AND indexname LIKE 'llm_requests_%_default') AS child`,
    );
    expect(named[0]!.parent).toBe(9);
    expect(named[0]!.child).toBe(named[0]!.parent);
  });

  it("Should keep llm_requests' row trigger: an insert without preview gets it computed (migration 0019)", async () => {
    const { rows } = await client.query(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, scoring_state)
       VALUES (gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'm', 'openai',
               '{"messages":[{"role":"user","content":"after the move"}]}', 'pending')
       RETURNING preview, search_tsv IS NOT NULL AS searchable`,
    );
    expect(rows[0]).toEqual({ preview: "after the move", searchable: true });
  });
});
