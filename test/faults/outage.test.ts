/**
 * The reliability suite (issue 12, point 6), against `npm run dev` as a user runs it, with the
 * stack's PostgreSQL run by this suite (given as DATABASE_URL) so it can be stopped and started:
 *
 * 1. The capture proxy with revoked, rotated and unknown keys, through the real key check.
 * 2. PostgreSQL stopped for OUTAGE_MS under a bounded load (ingest and proxied calls at fixed
 *    rates) and started again: every ingest answer is 202 or 503 (never 500), every proxied
 *    call reaches the application; afterwards every 202 and every proxied call is stored and has
 *    six scores within two minutes of the restart.
 * 3. A load run with autocannon on ingest and on the proxy: 0 errors at a stated rate.
 *
 * Figures (counts, time to the last score, autocannon latencies) go to bench/results/faults.md;
 * nothing here asserts a latency.
 *
 * "Every proxied call stored" covers the calls served during the outage only once the proxy
 * delivers its records through the durable capture queue (issue 12, point 1: the `log-records`
 * queue in workers/proxy/wrangler.jsonc); until then that one assertion is skipped and says so.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDatabase, ROOT, startEmbeddedPostgres, type LocalPostgres } from "../../scripts/lib/postgres";
import { poll, SCORERS, StackApi, type RequestDetail } from "../e2e/harness/api";
import { startDevStack, type DevStack } from "../e2e/harness/dev-stack";
import { startProviderStandIns, type ProviderStandIns } from "../e2e/harness/upstreams";

/** Ports: the stack's API and proxy, the PostgreSQL this suite runs, and the stack's unused embedded one; all below
 * Linux's ephemeral range (32768-60999), which outgoing connections take ports from (docs/testing.md). */
const PORTS = {
  api: Number(process.env.SIGHTLINE_FAULTS_API_PORT ?? 8721),
  proxy: Number(process.env.SIGHTLINE_FAULTS_PROXY_PORT ?? 8722),
  pg: Number(process.env.SIGHTLINE_FAULTS_PG_PORT ?? 25522),
  stackPg: Number(process.env.SIGHTLINE_FAULTS_STACK_PG_PORT ?? 25523),
  stripe: Number(process.env.SIGHTLINE_FAULTS_STRIPE_PORT ?? 8723),
  sweep: Number(process.env.SIGHTLINE_FAULTS_SWEEP_PORT ?? 8724),
};
/** How long PostgreSQL stays down (issue 12: 60 s). */
const OUTAGE_MS = Number(process.env.SIGHTLINE_FAULTS_OUTAGE_MS ?? 60_000);
/** Bounded load during the outage run: one ingest call every 200 ms, one proxied call every 500 ms. */
const INGEST_EVERY_MS = 200;
const PROXY_EVERY_MS = 500;
/** Load before the stop and after the restart. */
const AROUND_MS = 10_000;
/** Deadline after the restart for every call to be stored and scored (issue 12). */
const SCORED_WITHIN_MS = 120_000;
/**
 * autocannon: fixed request rates (req/s) and duration (s) of the load runs. The rates are what
 * `npm run dev` (wrangler dev, a connection per statement) sustains on the 2-core CI machine
 * with room to spare; enough connections that the rate, not the connection count, limits.
 */
const LOAD = { ingestRate: 25, proxyRate: 25, seconds: 20, connections: 20 };

/** The proxy delivers records through the durable capture queue (issue 12, point 1). */
const DURABLE_CAPTURE = /log-records/.test(readFileSync(join(ROOT, "workers/proxy/wrangler.jsonc"), "utf8"));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PROVIDER_KEY = "sk-faults-provider-key-0123456789";

let pg: LocalPostgres | undefined;
let pgDir = "";
let dbUrl = "";
let providers: ProviderStandIns | undefined;
let stack: DevStack | undefined;
let api: StackApi;
const results: Record<string, unknown> = { date: new Date().toISOString().slice(0, 10), outage_ms: OUTAGE_MS, durable_capture: DURABLE_CAPTURE };

async function startPg(): Promise<LocalPostgres> {
  return startEmbeddedPostgres({ dir: pgDir, port: PORTS.pg, ephemeral: true });
}

/** Calls an /internal administration route with the stack's secret. */
async function admin(path: string, init: { method?: string; json?: unknown } = {}): Promise<any> {
  const res = await fetch(stack!.apiUrl + path, {
    method: init.method ?? "GET",
    // Content-Type only with a body: the API refuses an empty body declared as JSON (400).
    headers: { "X-Internal-Secret": stack!.secret, ...(init.json === undefined ? {} : { "Content-Type": "application/json" }) },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? "GET"} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Runs SQL on the suite's PostgreSQL (one connection). */
async function sql(text: string, params: unknown[] = []): Promise<void> {
  const { default: pgLib } = await import("pg");
  const client = new pgLib.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query(text, params);
  } finally {
    await client.end();
  }
}

/** The proxy's answer to one chat completion with Sightline key `key`. */
async function proxied(key: string, model = "gpt-4o-mini"): Promise<{ status: number; body: any }> {
  const res = await fetch(`${stack!.proxyUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${PROVIDER_KEY}`, "X-Service-Key": key, "Content-Type": "application/json", "x-test-fixture": "chat-completion" },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "Say hello." }] }),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  mkdirSync(join(ROOT, ".data"), { recursive: true });
  pgDir = join(ROOT, ".data", `faults-pg-${PORTS.pg}`);
  rmSync(pgDir, { recursive: true, force: true });
  pg = await startPg();
  await ensureDatabase(pg.serverUrl, "sightline", true);
  dbUrl = pg.urlFor("sightline");
  providers = await startProviderStandIns();
  stack = await startDevStack({
    ports: { api: PORTS.api, proxy: PORTS.proxy, pg: PORTS.stackPg },
    stripePort: PORTS.stripe,
    sweepPort: PORTS.sweep,
    upstreamBaseUrl: providers.openaiUrl,
    databaseUrl: dbUrl,
    echo: process.env.SIGHTLINE_E2E_ECHO === "1",
  });
  api = new StackApi(stack.apiUrl, stack.key);
}, 300_000);

afterAll(async () => {
  await stack?.stop().catch(() => {});
  await providers?.close().catch(() => {});
  await pg?.stop().catch(() => {});
  rmSync(pgDir, { recursive: true, force: true });
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(join(ROOT, "bench/results/faults.json"), JSON.stringify(results, null, 2) + "\n");
  writeFileSync(join(ROOT, "bench/results/faults.md"), markdown(results));
}, 120_000);

describe("the proxy and Sightline keys (real key check)", () => {
  it("Should answer 401 {detail} for an unknown well-formed key", async () => {
    const res = await proxied(`slk_${"0".repeat(48)}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ detail: "invalid API key" });
  });

  it("Should refuse a key within a second of its revocation", async () => {
    const { id, key } = await admin(`/internal/projects/${stack!.projectId}/keys`, { method: "POST", json: { name: "revoked" } });
    expect((await proxied(key)).status).toBe(200);
    await admin(`/internal/projects/${stack!.projectId}/keys/${id}/revoke`, { method: "POST" });
    await sleep(1_100); // the proxy reuses a verdict for at most 1 s
    const res = await proxied(key);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ detail: "API key has been revoked" });
  });

  it("Should accept a rotated key during its grace period and refuse it after", async () => {
    const { id, key } = await admin(`/internal/projects/${stack!.projectId}/keys`, { method: "POST", json: { name: "rotated" } });
    const rotated = await admin(`/internal/projects/${stack!.projectId}/keys/${id}/rotate`, { method: "POST" });
    expect((await proxied(key)).status).toBe(200);
    expect((await proxied(rotated.key.key)).status).toBe(200);
    // Move the end of the 60 s grace period into the past instead of waiting for it.
    await sql("UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    await sleep(1_100);
    const res = await proxied(key);
    expect(res.status).toBe(401);
    expect(res.body.detail).toContain("expired");
    expect((await proxied(rotated.key.key)).status).toBe(200);
  });
});

describe(`PostgreSQL stopped for ${OUTAGE_MS / 1000} s under load`, () => {
  const run = randomUUID().slice(0, 8);
  const ingestModel = `faults-ingest-${run}`;
  const proxyModel = `faults-proxy-${run}`;
  type Answer = { at: number; status: number; id?: string; retryAfter?: string | null; error?: string };
  const ingest: Answer[] = [];
  const proxy: Answer[] = [];
  let stoppedAt = 0;
  let restartedAt = 0;

  it("Should answer every ingest call 202 or 503 (never 500) and serve every proxied call", async () => {
    const client = new OpenAI({ apiKey: PROVIDER_KEY, baseURL: `${stack!.proxyUrl}/v1`, defaultHeaders: { "X-Service-Key": stack!.key }, maxRetries: 0 });
    let loading = true;
    const ingestLoop = (async () => {
      for (let i = 0; loading; i++) {
        const at = Date.now();
        void fetch(`${stack!.apiUrl}/internal/log`, {
          method: "POST",
          headers: { "X-Service-Key": stack!.key, "Content-Type": "application/json" },
          body: JSON.stringify({
            model: ingestModel,
            provider: "openai",
            request_body: { messages: [{ role: "user", content: `faults ${run} ingest ${i}` }] },
            // Over 1 KiB: the answer goes to R2 (src/bodies/), which must lose nothing either.
            response_body: { choices: [{ message: { role: "assistant", content: `ok ${"padding ".repeat(200)}` } }] },
          }),
        })
          .then(async (res) => {
            const body = (await res.json().catch(() => ({}))) as { id?: string };
            ingest.push({ at, status: res.status, id: body.id, retryAfter: res.headers.get("retry-after") });
          })
          .catch((err: unknown) => ingest.push({ at, status: 0, error: String(err) }));
        await sleep(INGEST_EVERY_MS);
      }
    })();
    const proxyLoop = (async () => {
      for (let i = 0; loading; i++) {
        const at = Date.now();
        void client.chat.completions
          .create(
            { model: proxyModel, messages: [{ role: "user", content: `faults ${run} proxy ${i}` }] },
            { headers: { "x-test-fixture": "chat-completion" } },
          )
          .then((c) => proxy.push({ at, status: c.choices.length > 0 ? 200 : -1 }))
          .catch((err: { status?: number }) => proxy.push({ at, status: err.status ?? 0, error: String(err) }));
        await sleep(PROXY_EVERY_MS);
      }
    })();

    await sleep(AROUND_MS);
    stoppedAt = Date.now();
    await pg!.stop();
    await sleep(OUTAGE_MS);
    pg = await startPg();
    restartedAt = Date.now();
    await sleep(AROUND_MS);
    loading = false;
    await Promise.all([ingestLoop, proxyLoop]);
    await sleep(5_000); // the last calls' answers

    const count = (xs: Answer[], pred: (a: Answer) => boolean) => xs.filter(pred).length;
    const statuses = (xs: Answer[]) => Object.fromEntries([...new Set(xs.map((a) => a.status))].map((s) => [s, count(xs, (a) => a.status === s)]));
    results.outage = {
      ingest_every_ms: INGEST_EVERY_MS,
      proxy_every_ms: PROXY_EVERY_MS,
      ingest_calls: ingest.length,
      ingest_statuses: statuses(ingest),
      ingest_503_without_retry_after: count(ingest, (a) => a.status === 503 && !a.retryAfter),
      proxy_calls: proxy.length,
      proxy_statuses: statuses(proxy),
      proxy_calls_during_outage: count(proxy, (a) => a.at >= stoppedAt && a.at < restartedAt),
    };
    expect(ingest.length).toBeGreaterThan(0);
    // The application never fails because Sightline did.
    expect(proxy.filter((a) => a.status !== 200)).toEqual([]);
    expect(statuses(ingest)).not.toHaveProperty("500");
    expect(ingest.filter((a) => a.status !== 202 && a.status !== 503)).toEqual([]);
    expect(ingest.filter((a) => a.status === 503 && !a.retryAfter)).toEqual([]);
    expect(count(ingest, (a) => a.status === 503)).toBeGreaterThan(0); // the outage was seen
  });

  it("Should store every 202 and give it six scores within two minutes of the restart", async () => {
    expect(restartedAt).toBeGreaterThan(0);
    const accepted = new Set(ingest.filter((a) => a.status === 202).map((a) => a.id!));
    // Retries with backoff bring the jobs back; npm run dev's every-minute sweep covers the rest.
    const unscored = await poll(
      "six scores on every accepted call",
      async () => {
        const details = await listDetails(ingestModel);
        const scored = details.filter((d) => d.safety_scores.length === SCORERS.length);
        const missing = [...accepted].filter((id) => !scored.some((d) => d.id === id));
        return missing.length === 0 ? scored : undefined;
      },
      Math.max(0, restartedAt + SCORED_WITHIN_MS - Date.now()),
      2_000,
    );
    const stored = new Set(unscored.map((d) => d.id));
    results.ingest_after_restart = {
      accepted: accepted.size,
      stored_and_scored: stored.size,
      seconds_after_restart: Math.round((Date.now() - restartedAt) / 1000),
    };
    for (const id of accepted) expect(stored.has(id), id).toBe(true);
    for (const d of unscored) expect(d.safety_scores.map((s) => s.scorer_name).sort()).toEqual([...SCORERS]);
  });

  /** Waits (until two minutes after the restart) for `count` proxied calls with six scores each. */
  const scoredProxied = (count: number) =>
    poll(
      `${count} proxied calls stored and scored`,
      async () => {
        const d = (await listDetails(proxyModel)).filter((x) => x.safety_scores.length === SCORERS.length);
        return d.length >= count ? d : undefined;
      },
      Math.max(10_000, restartedAt + SCORED_WITHIN_MS - Date.now()),
      2_000,
    );

  it("Should store every proxied call served before and after the outage, with six scores", async () => {
    const outside = proxy.filter((a) => a.status === 200 && (a.at < stoppedAt - 5_000 || a.at > restartedAt + 5_000)).length;
    const details = await scoredProxied(outside);
    results.proxy_stored_outside_outage = { served: outside, stored_and_scored: details.length };
    expect(details.length).toBeGreaterThanOrEqual(outside);
  });

  it.skipIf(!DURABLE_CAPTURE)("Should store every proxied call, those served during the outage included (durable capture)", async () => {
    const served = proxy.filter((a) => a.status === 200).length;
    const details = await scoredProxied(served);
    results.proxy_all_stored = { served, stored_and_scored: details.length };
    expect(details.length).toBe(served);
  });
});

describe("load runs with autocannon", () => {
  /** POSTs `body` to `url` at `rate` req/s for LOAD.seconds; asserts 0 errors, timeouts and non-2xx. */
  async function loadRun(url: string, headers: Record<string, string>, body: unknown, rate: number) {
    const r = await autocannon({
      url,
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: JSON.stringify(body),
      connections: LOAD.connections,
      overallRate: rate,
      duration: LOAD.seconds,
    });
    expect({ errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx }).toEqual({ errors: 0, timeouts: 0, non2xx: 0 });
    return summary(r, rate);
  }

  it(`Should take ${LOAD.ingestRate} ingest calls/s for ${LOAD.seconds} s with 0 errors`, async () => {
    const body = { model: "faults-load", provider: "openai", request_body: { messages: [{ role: "user", content: "load" }] } };
    results.load_ingest = await loadRun(`${stack!.apiUrl}/internal/log`, { "X-Service-Key": stack!.key }, body, LOAD.ingestRate);
  });

  it(`Should take ${LOAD.proxyRate} proxied calls/s for ${LOAD.seconds} s with 0 errors`, async () => {
    const headers = { Authorization: `Bearer ${PROVIDER_KEY}`, "X-Service-Key": stack!.key, "x-test-fixture": "chat-completion" };
    const body = { model: "faults-load-proxy", messages: [{ role: "user", content: "load" }] };
    results.load_proxy = await loadRun(`${stack!.proxyUrl}/v1/chat/completions`, headers, body, LOAD.proxyRate);
  });
});

/** Details of every request of the demo project with `model`. */
async function listDetails(model: string): Promise<RequestDetail[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const { items, total } = await api.get<{ items: { id: string }[]; total: number }>(`/api/requests?model=${model}&page_size=200&page=${page}`);
    ids.push(...items.map((i) => i.id));
    if (items.length === 0 || ids.length >= total) break;
  }
  return Promise.all(ids.map((id) => api.get<RequestDetail>(`/api/requests/${id}`)));
}

/** The figures of one autocannon run. */
function summary(r: autocannon.Result, rate: number) {
  return {
    target_rate_per_s: rate,
    seconds: r.duration,
    connections: r.connections,
    requests: r.requests.total,
    achieved_rate_per_s: Math.round((r.requests.total / r.duration) * 10) / 10,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    latency_ms: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
  };
}

function markdown(r: Record<string, any>): string {
  const o = r.outage ?? {};
  const load = (name: string, x: any) =>
    x
      ? `| ${name} | ${x.target_rate_per_s} | ${x.achieved_rate_per_s} | ${x.requests} | ${x.errors} / ${x.timeouts} / ${x.non2xx} | ${x.latency_ms.p50} | ${x.latency_ms.p99} | ${x.latency_ms.max} |`
      : `| ${name} | not run |`;
  return `# Reliability suite (\`npm run test:faults\`)

Date ${r.date}. \`npm run dev\` (API + scorer and proxy under wrangler dev) against a PostgreSQL run by
the suite; the OpenAI upstream is the local stand-in replaying recorded responses (test/fixtures/openai).

## PostgreSQL stopped for ${r.outage_ms / 1000} s under load

Load: one POST /internal/log every ${o.ingest_every_ms} ms and one chat completion through the proxy (openai SDK)
every ${o.proxy_every_ms} ms, for ${AROUND_MS / 1000} s before the stop, during the outage and ${AROUND_MS / 1000} s after the restart.

| what | figure |
|---|---|
| ingest calls | ${o.ingest_calls} |
| ingest answers by status | ${JSON.stringify(o.ingest_statuses)} |
| 503 without Retry-After | ${o.ingest_503_without_retry_after} |
| proxied calls (answers by status) | ${o.proxy_calls} (${JSON.stringify(o.proxy_statuses)}) |
| proxied calls made during the outage | ${o.proxy_calls_during_outage} |
| accepted (202) calls stored and scored | ${r.ingest_after_restart ? `${r.ingest_after_restart.stored_and_scored} of ${r.ingest_after_restart.accepted}, all by ${r.ingest_after_restart.seconds_after_restart} s after the restart` : "not reached"} |
| proxied calls served outside the outage window, stored and scored | ${r.proxy_stored_outside_outage ? `all ${r.proxy_stored_outside_outage.served} (${r.proxy_stored_outside_outage.stored_and_scored} proxied calls of the run stored and scored at that point)` : "not reached"} |
| every proxied call stored (durable capture) | ${r.durable_capture ? (r.proxy_all_stored ? `${r.proxy_all_stored.stored_and_scored} of ${r.proxy_all_stored.served}` : "not reached") : "pending: the proxy has no durable capture queue yet (issue 12, point 1)"} |

## Load runs (autocannon, ${LOAD.connections} connections, fixed rate)

| target | rate asked (req/s) | achieved (req/s) | requests | errors / timeouts / non-2xx | p50 ms | p99 ms | max ms |
|---|---|---|---|---|---|---|---|
${load("POST /internal/log", r.load_ingest)}
${load("proxy chat completion (JSON)", r.load_proxy)}
`;
}
