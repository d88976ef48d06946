/**
 * `npx tsx bench/dashboard/preview.ts`: what the request preview (issue 33.6) costs.
 *
 * The preview is a generated column of `llm_requests` (`sightline_preview`, migrations/0013),
 * computed once per stored row; lists read the short column, never the bodies. Measured on a
 * fresh embedded PostgreSQL with the migrations applied and BENCH_ROWS rows (default 100,000)
 * shaped as bench/dashboard/run.ts seeds them (a system prompt and one user turn):
 *
 * 1. the preview's computation per row against the full-text document's, which every insert
 *    already computes (both over every seeded row, in PostgreSQL);
 * 2. the list query (the API's `listRequestsKeyset`: first page of 50, score chips included)
 *    with the preview column and without it, BENCH_SAMPLES times each, interleaved, from Node
 *    over one connection.
 *
 * Writes bench/results/list-preview.md.
 */
import { writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import type { Db } from "../../src/db/driver/client";
import { newestFirst } from "../../src/db/paging";
import { requestSummaryColumns } from "../../src/db/requests";
import { llmRequests } from "../../src/db/schema";
import { eq } from "drizzle-orm";

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 200);
const PG_PORT = Number(process.env.BENCH_PG_PORT ?? 25594);

const quantile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

const server = await startEmbeddedPostgres({ dir: ".data/bench-preview-pg", port: PG_PORT, ephemeral: true });
try {
  await ensureDatabase(server.serverUrl, "bench", true);
  const url = server.urlFor("bench");
  await applyMigrations(url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const [project] = (await client.query<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id")).rows;
  const seedStart = performance.now();
  await client.query(
    `INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, request_body, created_at, scoring_state)
     SELECT gen_random_uuid(), $1, 'gpt-4o-mini', 'openai', 40, 20, 0.0001,
       jsonb_build_object('model', 'gpt-4o-mini', 'messages', jsonb_build_array(
         jsonb_build_object('role', 'system', 'content', 'You are a helpful assistant.'),
         jsonb_build_object('role', 'user', 'content', 'Question ' || i || ' about the quarterly report and its figures, in some detail please.'))),
       now() - make_interval(secs => i), 'scored'
     FROM generate_series(1, $2::int) AS i`,
    [project!.id, ROWS],
  );
  const seedS = (performance.now() - seedStart) / 1000;
  await client.query("VACUUM ANALYZE llm_requests");

  /** Milliseconds PostgreSQL spends computing `expr` over every row (EXPLAIN ANALYZE's execution time). */
  const exprMs = async (expr: string) => {
    const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, FORMAT TEXT) SELECT sum(length(${expr})) FROM llm_requests`)).rows;
    return Number(/Execution Time: ([\d.]+) ms/.exec(plan.map((r) => r["QUERY PLAN"]).join("\n"))![1]);
  };
  const baseMs = await exprMs("id::text");
  const previewMs = await exprMs("public.sightline_preview(request_body, 120)");
  const searchMs = await exprMs("to_tsvector('simple'::regconfig, coalesce(public.sightline_search_text(request_body, 50000), ''))::text");
  const perRowUs = (ms: number) => ((ms - baseMs) * 1000) / ROWS;

  const db = drizzle(client) as unknown as Db;
  const { preview: _preview, ...withoutPreview } = requestSummaryColumns;
  const list = (columns: typeof withoutPreview) =>
    db
      .select(columns)
      .from(llmRequests)
      .where(eq(llmRequests.project_id, project!.id))
      .orderBy(...newestFirst(llmRequests.created_at, llmRequests.id))
      .limit(51);
  const times = { with: [] as number[], without: [] as number[] };
  for (let i = 0; i < 10; i++) await Promise.all([list(requestSummaryColumns), list(withoutPreview)]);
  for (let i = 0; i < SAMPLES; i++) {
    for (const [name, columns] of [
      ["with", requestSummaryColumns],
      ["without", withoutPreview],
    ] as const) {
      const t = performance.now();
      await list(columns);
      times[name].push(performance.now() - t);
    }
  }
  await client.end();

  const md = [
    "# Request preview: cost (`npx tsx bench/dashboard/preview.ts`)",
    "",
    `Run ${new Date().toISOString()}, ${ROWS.toLocaleString("en-US")} requests, embedded PostgreSQL 18 (fsync off), 2 cores shared with other agents' test runs (load average over 1 minute at the end: ${loadavg()[0]!.toFixed(1)}).`,
    `Seeding them with one INSERT ... SELECT (preview and full-text document generated per row): ${seedS.toFixed(1)} s.`,
    "",
    "| computed over every row | total ms | per row (µs, beyond reading the row) |",
    "|---|---:|---:|",
    `| \`sightline_preview(request_body, 120)\` (the preview) | ${previewMs.toFixed(0)} | ${perRowUs(previewMs).toFixed(1)} |`,
    `| the full-text document of the request body (already computed at every insert) | ${searchMs.toFixed(0)} | ${perRowUs(searchMs).toFixed(1)} |`,
    "",
    `List query, first page of 50 (the list's columns), ${SAMPLES} calls each, interleaved, from Node over one connection:`,
    "",
    "| columns | p50 ms | p95 ms |",
    "|---|---:|---:|",
    `| without \`preview\` (before) | ${quantile(times.without, 0.5).toFixed(2)} | ${quantile(times.without, 0.95).toFixed(2)} |`,
    `| with \`preview\` (after) | ${quantile(times.with, 0.5).toFixed(2)} | ${quantile(times.with, 0.95).toFixed(2)} |`,
    "",
  ].join("\n");
  writeFileSync(join(ROOT, "bench/results/list-preview.md"), md);
  console.log(md);
} finally {
  await server.stop();
}
