/**
 * `npm run bench:ingest`: POST /internal/log throughput and latency against the local stack
 * (API worker under wrangler dev / workerd, embedded PostgreSQL), beside a baseline of the
 * same records inserted straight through `pg` in the same run. Loopback only, bounded counts.
 *
 * Writes bench/results/ingest.md and bench/results/ingest.json.
 * Options (env): BENCH_REQUESTS (default 3000), BENCH_CONCURRENCY (default 16).
 */
import { randomBytes } from "node:crypto";
import { cpus } from "node:os";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import pg from "pg";
import { uuidv7 } from "uuidv7";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "../../scripts/lib/postgres";
import { startWorkers } from "../../scripts/lib/workers";

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 200;
const PG_PORT = 55435;
const API_PORT = 8795;

/** A realistic ~1.5 KB chat-completion record. */
function record(i: number) {
  return {
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 180,
    completion_tokens: 95,
    cost_usd: 0.0000855,
    latency_ms: 800 + (i % 400),
    request_body: {
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "You are a helpful assistant for an online bookshop. Answer briefly." },
        { role: "user", content: `Order ${i}: can you recommend three novels like The Remains of the Day, and say why each fits?` },
      ],
      temperature: 0.3,
    },
    response_body: {
      id: `chatcmpl-${i}`,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: "1. Never Let Me Go: the same restrained narrator. 2. Stoner: a quiet life told with dignity. 3. The Sense of an Ending: memory and regret, rendered precisely. ".repeat(3) },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 180, completion_tokens: 95, total_tokens: 275 },
    },
    metadata: { sdk: "bench" },
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `task(i)` for i < n with `concurrency` workers; returns per-task ms and wall time. */
async function load(n: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { perSecond: (n / wallMs) * 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99), wallMs };
}

const server = await startEmbeddedPostgres({ dir: ".data/bench-pg", port: PG_PORT, ephemeral: true });
const url = server.urlFor("sightline_bench");
await ensureDatabase(server.serverUrl, "sightline_bench", true);
await applyMigrations(url);
const secret = randomBytes(32).toString("hex");
const workers = await startWorkers({
  databaseUrl: url,
  internalSecret: secret,
  apiPort: API_PORT,
  withScorer: false,
  quiet: true,
  persistTo: ".wrangler/bench-ingest",
});
const pool = new pg.Pool({ connectionString: url, max: CONCURRENCY });
try {
  const admin = { "X-Internal-Secret": secret, "Content-Type": "application/json" };
  const project = (await (await fetch(`${workers.apiUrl}/internal/projects`, { method: "POST", headers: admin, body: JSON.stringify({ name: "bench" }) })).json()) as { id: string };
  const { key } = (await (await fetch(`${workers.apiUrl}/internal/projects/${project.id}/keys`, { method: "POST", headers: admin, body: "{}" })).json()) as { key: string };
  await pool.query("UPDATE subscriptions SET tier = 'enterprise' WHERE project_id = $1", [project.id]);

  const post = async (i: number) => {
    const res = await fetch(`${workers.apiUrl}/internal/log`, {
      method: "POST",
      headers: { "X-Service-Key": key, "Content-Type": "application/json" },
      body: JSON.stringify(record(i)),
    });
    if (res.status !== 202) throw new Error(`POST /internal/log answered ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const insertSql = `INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd,
      latency_ms, request_body, response_body, metadata) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`;
  const params = (i: number) => {
    const r = record(i);
    return [uuidv7(), project.id, r.model, r.provider, r.prompt_tokens, r.completion_tokens, r.cost_usd, r.latency_ms,
      JSON.stringify(r.request_body), JSON.stringify(r.response_body), JSON.stringify(r.metadata)];
  };
  // The Workers connection model without Hyperdrive's pool: one connection per insert.
  const insertFreshConnection = async (i: number) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(insertSql, params(i));
    } finally {
      await client.end();
    }
  };
  // Upper bound of the local stack: a route that touches no database.
  const noDb = async () => {
    const res = await fetch(`${workers.apiUrl}/no-such-route`);
    await res.arrayBuffer();
  };
  const insert = async (i: number) => {
    const r = record(i);
    await pool.query(
      `INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, latency_ms,
         request_body, response_body, metadata) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11)`,
      [uuidv7(), project.id, r.model, r.provider, r.prompt_tokens, r.completion_tokens, r.cost_usd, r.latency_ms,
        JSON.stringify(r.request_body), JSON.stringify(r.response_body), JSON.stringify(r.metadata)],
    );
  };

  await load(WARMUP, CONCURRENCY, post);
  await load(WARMUP, CONCURRENCY, insert);
  const raw = await load(REQUESTS, CONCURRENCY, insert);
  const rawFresh = await load(REQUESTS, CONCURRENCY, insertFreshConnection);
  const apiRun = await load(REQUESTS, CONCURRENCY, post);
  const noDbRun = await load(REQUESTS, CONCURRENCY, noDb);
  const ratio = apiRun.perSecond / raw.perSecond;
  const ratioFresh = apiRun.perSecond / rawFresh.perSecond;

  const result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, node: process.version },
    requests: REQUESTS,
    concurrency: CONCURRENCY,
    api: apiRun,
    raw_pg_insert: raw,
    raw_pg_insert_connection_per_insert: rawFresh,
    api_route_without_database: noDbRun,
    api_to_raw_ratio: ratio,
    api_to_connection_per_insert_ratio: ratioFresh,
    target_ratio: 0.5,
  };
  const f = (n: number) => n.toFixed(2);
  const md = `# Ingest benchmark

\`npm run bench:ingest\`, ${result.date}; ${result.machine.cpus} CPUs, Node ${result.machine.node}.
${REQUESTS} records of ~1.5 KB each, ${CONCURRENCY} concurrent clients, loopback, after ${WARMUP} warm-up requests.

| path | throughput (req/s) | p50 (ms) | p99 (ms) |
|---|---:|---:|---:|
| POST /internal/log (API worker in workerd: auth + quota statement + queue send) | ${f(apiRun.perSecond)} | ${f(apiRun.p50)} | ${f(apiRun.p99)} |
| raw INSERT through pg (pooled, same records) | ${f(raw.perSecond)} | ${f(raw.p50)} | ${f(raw.p99)} |
| raw INSERT through pg, new connection per insert | ${f(rawFresh.perSecond)} | ${f(rawFresh.p50)} | ${f(rawFresh.p99)} |
| API route without database (404), ceiling of the local stack | ${f(noDbRun.perSecond)} | ${f(noDbRun.p50)} | ${f(noDbRun.p99)} |

API / raw pooled throughput: **${(ratio * 100).toFixed(1)}%** (target >= 50%: ${ratio >= 0.5 ? "met" : "missed"}).
API / raw with a connection per insert: **${(ratioFresh * 100).toFixed(1)}%**.

The API path opens a new database connection per request (Workers cannot share I/O objects between
requests; in production Hyperdrive pools them at the edge, locally wrangler connects straight to
PostgreSQL), validates the body with zod, checks the key, runs the quota statement and enqueues the
scoring job. The load generator, workerd and PostgreSQL share the machine's cores.
`;
  writeFileSync(join(ROOT, "bench/results/ingest.md"), md);
  writeFileSync(join(ROOT, "bench/results/ingest.json"), JSON.stringify(result, null, 2) + "\n");
  console.log(md);
} finally {
  await pool.end();
  await workers.stop();
  await server.stop();
}
