/**
 * End-to-end scoring latency under `npm run dev`: `npm run bench:e2e [-- --calls 50]`.
 *
 * Starts the stack exactly as a user does (`npm run dev`, through the e2e harness: fresh data
 * directory, own ports, the printed demo key), then posts calls to POST /internal/log one at a
 * time and measures, per call, the time from the 202 answer to the moment the sixth
 * safety_scores row of that request is visible. Visibility is read from PostgreSQL every
 * POLL_MS milliseconds over a few open connections (polling the API that often would load the
 * worker being measured); after each call GET /api/requests/{id} must show the six scores too.
 *
 * Scenarios:
 * - sequential: one call at a time, the next after the previous one was scored. Each job is
 *   alone in the queue, so the consumer's max_batch_timeout decides when its batch starts.
 * - burst: BURST calls posted at once (a full batch, max_batch_size 25), each timed alike.
 *
 * Writes bench/results/e2e.md and bench/results/e2e.json.
 */
import { writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ROOT } from "../../scripts/lib/postgres";
import { StackApi, SCORERS } from "../../test/e2e/harness/api";
import { startDevStack } from "../../test/e2e/harness/dev-stack";

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const CALLS = arg("calls", 50);
const WARMUP = arg("warmup", 5);
const BURST = arg("burst", 25);
const BURSTS = arg("bursts", 2);
/** Interval of the visibility check (ms): the resolution of the measurement. */
const POLL_MS = 5;
/** A call not scored within this long counts as a failure of the run. */
const DEADLINE_MS = 60_000;
/** Ports of the benchmark's stack: neither a developer's (8787, 8080, 25431) nor the e2e tests'. */
const PORTS = {
  api: Number(process.env.SIGHTLINE_BENCH_E2E_API_PORT ?? 8876),
  proxy: Number(process.env.SIGHTLINE_BENCH_E2E_PROXY_PORT ?? 8877),
  pg: Number(process.env.SIGHTLINE_BENCH_E2E_PG_PORT ?? 25476),
};

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const round = (ms: number) => Math.round(ms * 10) / 10;

/** A chat call of about 1 KB, varied per call. */
function record(i: number): object {
  return {
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 180,
    completion_tokens: 60,
    latency_ms: 640,
    request_body: {
      messages: [
        { role: "system", content: "You are a helpful assistant for an online bookshop. Answer briefly." },
        {
          role: "user",
          content: `Call ${i}: which of your ${i % 7} recommended crime novels from the 1930s is the shortest, and is it in stock? ${"Some context. ".repeat(20)}`,
        },
      ],
    },
    response_body: {
      choices: [
        {
          message: { role: "assistant", content: `The shortest is title ${i % 7}; it is in stock and ships tomorrow. ${"More detail. ".repeat(15)}` },
          finish_reason: "stop",
        },
      ],
    },
  };
}

/** Timing of one call. */
interface Sample {
  /** Request sent to 202 received (ms). */
  postMs: number;
  /** 202 received to the sixth score row visible (ms). */
  toSixMs: number;
}

async function sixVisible(db: pg.Pool, id: string, since: number): Promise<number> {
  for (;;) {
    const { rows } = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM safety_scores WHERE request_id = $1", [id]);
    if (rows[0]!.n >= SCORERS.length) return now() - since;
    if (now() - since > DEADLINE_MS) throw new Error(`request ${id}: not six scores after ${DEADLINE_MS} ms`);
    await sleep(POLL_MS);
  }
}

async function oneCall(api: StackApi, db: pg.Pool, i: number): Promise<Sample> {
  const t0 = now();
  const posted = await api.log(record(i));
  const t202 = now();
  if (posted.status !== 202) throw new Error(`POST /internal/log answered ${posted.status}: ${JSON.stringify(posted.body)}`);
  const toSixMs = await sixVisible(db, posted.body.id, t202);
  const detail = await api.get<{ safety_scores: unknown[] }>(`/api/requests/${posted.body.id}`);
  if (detail.safety_scores.length !== SCORERS.length) throw new Error(`API shows ${detail.safety_scores.length} scores for ${posted.body.id}`);
  return { postMs: t202 - t0, toSixMs };
}

/** p50/p90/p99/min/max/mean of one scenario (ms). */
function stats(samples: Sample[]) {
  const six = samples.map((s) => s.toSixMs).sort((a, b) => a - b);
  const post = samples.map((s) => s.postMs).sort((a, b) => a - b);
  return {
    calls: samples.length,
    to_six_scores_ms: {
      p50: round(percentile(six, 50)),
      p90: round(percentile(six, 90)),
      p99: round(percentile(six, 99)),
      min: round(six[0]!),
      max: round(six.at(-1)!),
      mean: round(six.reduce((a, b) => a + b, 0) / six.length),
    },
    post_202_ms: { p50: round(percentile(post, 50)), p99: round(percentile(post, 99)) },
    within_2s: six.filter((ms) => ms <= 2_000).length,
  };
}

const started = now();
const stack = await startDevStack({ ports: PORTS, stripePort: PORTS.api + 3, sweepPort: PORTS.api + 4 });
const startupMs = now() - started;
console.log(`▶ npm run dev up in ${Math.round(startupMs)} ms (API ${stack.apiUrl})`);
const api = new StackApi(stack.apiUrl, stack.key);
// A small pool: the burst polls for 25 requests at once.
const db = new pg.Pool({ connectionString: `postgres://postgres:postgres@127.0.0.1:${PORTS.pg}/sightline`, max: 4 });
let result: Record<string, unknown> | undefined;
try {
  for (let i = 0; i < WARMUP; i++) await oneCall(api, db, -1 - i);
  const sequential: Sample[] = [];
  for (let i = 0; i < CALLS; i++) {
    sequential.push(await oneCall(api, db, i));
    if ((i + 1) % 10 === 0) console.log(`  sequential ${i + 1}/${CALLS}`);
  }
  const burst: Sample[] = [];
  for (let b = 0; b < BURSTS; b++) {
    burst.push(...(await Promise.all(Array.from({ length: BURST }, (_, i) => oneCall(api, db, 1000 * (b + 1) + i)))));
    console.log(`  burst ${b + 1}/${BURSTS}`);
  }
  result = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model, node: process.version },
    method: { poll_ms: POLL_MS, warmup: WARMUP, visibility: "SELECT count(*) FROM safety_scores WHERE request_id = $1, then GET /api/requests/{id} shows 6" },
    startup_ms: Math.round(startupMs),
    sequential: stats(sequential),
    burst: { size: BURST, bursts: BURSTS, ...stats(burst) },
  };
} finally {
  await db.end().catch(() => {});
  const stop = await stack.stop();
  console.log(`▶ stopped in ${stop.ms} ms; leftovers ${stop.leftovers.length}, busy ports ${stop.busyPorts.join(",") || "none"}`);
}

type Scenario = ReturnType<typeof stats>;
const row = (name: string, s: Scenario) =>
  `| ${name} | ${s.calls} | **${s.to_six_scores_ms.p50}** | ${s.to_six_scores_ms.p90} | **${s.to_six_scores_ms.p99}** | ${s.to_six_scores_ms.min} | ${s.to_six_scores_ms.max} | ${s.within_2s}/${s.calls} | ${s.post_202_ms.p50} / ${s.post_202_ms.p99} |`;
const r = result as {
  date: string;
  machine: { cpus: number; cpu?: string; node: string };
  startup_ms: number;
  sequential: Scenario;
  burst: Scenario & { size: number; bursts: number };
};
const md = `# End-to-end scoring latency

\`npm run bench:e2e\`, ${r.date}; ${r.machine.cpus} CPUs (${r.machine.cpu ?? "?"}), Node ${r.machine.node}.

The stack runs as a user runs it: \`npm run dev\` (embedded PostgreSQL, the API + scorer workers and the
proxy under \`wrangler dev\`) on a fresh data directory, started in ${(r.startup_ms / 1000).toFixed(1)} s. Each call is a ~1 KB
chat record posted to \`POST /internal/log\` with the demo key; the time runs from the 202 answer to the
moment its sixth \`safety_scores\` row is visible (PostgreSQL polled every ${POLL_MS} ms over open connections,
so values are up to ${POLL_MS} ms late), and \`GET /api/requests/{id}\` then shows the six scores.
${WARMUP} warm-up calls are discarded. The scorer consumes \`scoring-jobs\` with \`max_batch_size = 25\`,
\`max_batch_timeout: 1\` s (workers/scorer/wrangler.jsonc).

| scenario | calls | p50 (ms) | p90 (ms) | p99 (ms) | min (ms) | max (ms) | within 2 s | POST -> 202 p50 / p99 (ms) |
|---|---:|---:|---:|---:|---:|---:|---:|---:|
${row("sequential: one call at a time (a lone job waits for the batch timeout)", r.sequential)}
${row(`burst: ${r.burst.bursts} x ${r.burst.size} calls posted at once (full batches)`, r.burst)}

Target (issue 3): six score rows within 2 seconds of the post. With up to 100 samples, p99 is the slowest call.
The load generator, workerd, PostgreSQL and the polling share the machine's cores.
`;
writeFileSync(join(ROOT, "bench/results/e2e.md"), md);
writeFileSync(join(ROOT, "bench/results/e2e.json"), JSON.stringify(result, null, 2) + "\n");
console.log(md);
