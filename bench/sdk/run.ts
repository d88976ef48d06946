/**
 * `npm run bench:sdk`: per-call overhead of the Node client library (sdk/js), with the
 * Sightline API stopped (baseUrl on a closed loopback port), so records pile up, are
 * retried in the background and dropped by the bounded queue, as in the Python benchmark.
 *
 * 1. Robustness: 1,000 wrapped Anthropic calls over HTTP against a local stand-in upstream
 *    and 1,000 traced calls must all complete without an exception.
 * 2. Overhead: each variant timed call by call (performance.now) over N iterations after a
 *    warm-up, wrapped vs unwrapped in alternating blocks. Direct mode uses the same
 *    in-process fake transport for both (the Anthropic SDK's `fetch` option returning a
 *    canned Response), so network noise is excluded.
 * 3. Outage with a full buffer: a stand-in API answers every POST 503 + `Retry-After: 1`
 *    (what the API answers during a database outage) while traced calls are made for
 *    OUTAGE_MS with a 1,000-record buffer, 100 calls per 1 ms timer tick so the delivery
 *    loop runs and retries in between. Every call past the first 1,000 evicts the oldest
 *    record; each call is timed (it must neither throw nor wait for the network).
 *
 * Writes bench/results/sdk.md and bench/results/sdk.json.
 */
import Anthropic from "@anthropic-ai/sdk";
import { execSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { configure, shutdown, stats, trace, wrapAnthropic } from "../../sdk/js/src/index.js";
import { closedPort, fixture, startStandInApi, startUpstream } from "../../sdk/js/test/support/servers.js";

const ROOT = join(import.meta.dirname, "..", "..");
const N = Number(process.env.BENCH_CALLS ?? 20_000);
const WARMUP = 2_000;
const BLOCK = 500;
const OUTAGE_MS = Number(process.env.BENCH_OUTAGE_MS ?? 3_000);
const OUTAGE_QUEUE = 1_000;
const params = { model: "claude-3-5-haiku-latest", max_tokens: 64, messages: [{ role: "user" as const, content: "Hello there, how are you?" }] };

const MESSAGE = fixture("anthropic-message.json");
const SSE = fixture("anthropic-stream.sse");
const cannedFetch = async (_url: unknown, init?: { body?: unknown }) =>
  typeof init?.body === "string" && init.body.includes('"stream":true')
    ? new Response(SSE, { status: 200, headers: { "content-type": "text/event-stream" } })
    : new Response(MESSAGE, { status: 200, headers: { "content-type": "application/json", "request-id": "req_bench" } });
const fakeClient = () => new Anthropic({ apiKey: "bench", baseURL: "http://fake.invalid", maxRetries: 0, fetch: cannedFetch as typeof fetch });

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const us = (ms: number) => Math.round(ms * 1000 * 10) / 10;

type Variant = () => unknown | Promise<unknown>;

/** Times `plain` and `wrapped` call by call, alternating blocks of BLOCK calls. */
async function measure(plain: Variant, wrapped: Variant, isAsync: boolean) {
  const times = { plain: [] as number[], wrapped: [] as number[] };
  for (let i = 0; i < WARMUP; i++) {
    if (isAsync) {
      await plain();
      await wrapped();
    } else {
      plain();
      wrapped();
    }
  }
  for (let done = 0; done < N; done += BLOCK) {
    for (const [name, fn] of [
      ["plain", plain],
      ["wrapped", wrapped],
    ] as const) {
      const out = times[name];
      for (let i = 0; i < BLOCK; i++) {
        const t0 = performance.now();
        if (isAsync) await fn();
        else fn();
        out.push(performance.now() - t0);
      }
    }
  }
  const p = times.plain.sort((a, b) => a - b);
  const w = times.wrapped.sort((a, b) => a - b);
  return {
    plain_p50_us: us(pct(p, 50)),
    wrapped_p50_us: us(pct(w, 50)),
    overhead_p50_us: us(pct(w, 50) - pct(p, 50)),
    plain_p99_us: us(pct(p, 99)),
    wrapped_p99_us: us(pct(w, 99)),
    overhead_p99_us: us(pct(w, 99) - pct(p, 99)),
  };
}

async function robustness(upstreamUrl: string) {
  const client = wrapAnthropic(new Anthropic({ apiKey: "bench", baseURL: upstreamUrl, maxRetries: 0 }));
  const plain = new Anthropic({ apiKey: "bench", baseURL: upstreamUrl, maxRetries: 0 });
  const fn = trace({ model: "bench-trace" }, (s: string) => s.length);
  let errors = 0;
  let calls = 0;
  for (let i = 0; i < 1000; i++) {
    for (const c of [client, plain]) {
      try {
        await c.messages.create(params);
        calls++;
      } catch {
        errors++;
      }
    }
    try {
      fn(String(i));
      calls++;
    } catch {
      errors++;
    }
  }
  return { calls, errors };
}

/** Section 3: traced calls against an API answering 503 + Retry-After, buffer full. */
async function outage() {
  const api = await startStandInApi(() => ({ status: 503, headers: { "Retry-After": "1" }, body: { detail: "database unavailable" } }));
  configure({ apiKey: "slk_bench", baseUrl: api.url, maxQueueSize: OUTAGE_QUEUE });
  const plain = (s: string) => s.length;
  const fn = trace({ model: "bench-outage" }, plain);
  const times: number[] = [];
  const baseline: number[] = []; // the same function untraced, same conditions (machine noise)
  let errors = 0;
  const end = performance.now() + OUTAGE_MS;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      try {
        fn("hello sightline");
      } catch {
        errors++;
      }
      times.push(performance.now() - t0);
    }
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      plain("hello sightline");
      baseline.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 1)); // an application doing other work; the delivery loop posts and retries
  }
  const counters = stats();
  await shutdown({ timeoutMs: 0 });
  await api.close();
  // Calls over 1 ms per second spent inside the calls: preemption on a loaded machine hits
  // at a rate per second of running, so equal rates mean the library adds no waits.
  const profile = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const slow = sorted.filter((t) => t > 1).length;
    const inCallsS = sorted.reduce((a, b) => a + b, 0) / 1000;
    return {
      calls: sorted.length,
      p50_us: us(pct(sorted, 50)),
      p99_us: us(pct(sorted, 99)),
      p999_us: us(pct(sorted, 99.9)),
      max_us: us(sorted.at(-1) as number),
      over_1ms: slow,
      over_1ms_per_s: Math.round(slow / inCallsS),
    };
  };
  const traced = profile(times);
  return {
    ...traced,
    plain: profile(baseline),
    exceptions: errors,
    buffer: OUTAGE_QUEUE,
    dropped: counters.dropped,
    held: counters.queued + counters.inFlight,
    sent: counters.sent,
    failed: counters.failed,
    refused_posts: api.received.length,
    retry_waits: counters.retries,
  };
}

async function main() {
  const api = await closedPort();
  configure({ apiKey: "slk_bench", baseUrl: api, maxRetries: 3, backoffBaseMs: 200 });
  const upstream = await startUpstream();
  const robust = await robustness(upstream.url);
  await upstream.close();
  console.log(`robustness: ${robust.calls} calls over HTTP with the API down, ${robust.errors} exceptions`);

  const plainClient = fakeClient();
  const wrappedClient = wrapAnthropic(fakeClient());
  const streamOnce = async (c: Anthropic) => {
    const s = await c.messages.create({ ...params, stream: true });
    let n = 0;
    for await (const _ of s) n++;
    return n;
  };
  const work = (text: string) => text.toUpperCase();
  const traced = trace({ model: "bench-model" }, work);

  const scenarios: Record<string, Awaited<ReturnType<typeof measure>>> = {};
  scenarios["direct mode: anthropic `messages.create`"] = await measure(
    () => plainClient.messages.create(params),
    () => wrappedClient.messages.create(params),
    true,
  );
  console.log("create", scenarios["direct mode: anthropic `messages.create`"]);
  scenarios["direct mode: anthropic `create({stream: true})`, 8 events"] = await measure(
    () => streamOnce(plainClient),
    () => streamOnce(wrappedClient),
    true,
  );
  console.log("stream", scenarios["direct mode: anthropic `create({stream: true})`, 8 events"]);
  scenarios["`trace()` / `@traced` (sync function)"] = await measure(
    () => work("hello sightline"),
    () => traced("hello sightline"),
    false,
  );
  console.log("trace", scenarios["`trace()` / `@traced` (sync function)"]);
  const counters = stats();
  await shutdown({ timeoutMs: 0 });
  const down = await outage();
  console.log("outage", down);

  const python = readFileSync(join(ROOT, "sdk/python/bench/RESULTS.md"), "utf8");
  const pyRows = python.split("\n").filter((l) => l.startsWith("| direct mode") || l.startsWith("| `@trace`"));
  const pyOutage = python.includes("## Outage with a full buffer (Python)") ? python.slice(python.indexOf("## Outage with a full buffer (Python)")) : "";
  const meta = {
    date: new Date().toISOString(),
    nproc: availableParallelism(),
    node: process.version,
    calls_per_variant: N,
    warmup: WARMUP,
    command: "npm run bench:sdk",
    cpu: (() => {
      try {
        return execSync("grep -m1 'model name' /proc/cpuinfo", { encoding: "utf8" }).split(":")[1]?.trim();
      } catch {
        return undefined;
      }
    })(),
  };
  const worst = Math.max(...Object.values(scenarios).map((s) => s.overhead_p50_us));
  mkdirSync(join(ROOT, "bench/results"), { recursive: true });
  writeFileSync(
    join(ROOT, "bench/results/sdk.json"),
    JSON.stringify({ ...meta, robustness: robust, scenarios, stats_at_end: counters, outage_full_buffer: down, target_p50_overhead_us: 200 }, null, 2) + "\n",
  );
  const rows = Object.entries(scenarios).map(
    ([name, s]) =>
      `| Node | ${name} | ${s.plain_p50_us} | ${s.wrapped_p50_us} | **${s.overhead_p50_us}** | ${s.plain_p99_us} | ${s.wrapped_p99_us} | **${s.overhead_p99_us}** |`,
  );
  const md = `# Client library overhead: Node (sdk/js) and Python (sdk/python)

- date: ${meta.date}
- machine: nproc=${meta.nproc}${meta.cpu ? `, ${meta.cpu}` : ""}, Node ${meta.node}
- calls per variant: ${N} (after ${WARMUP} warm-up calls), timed one by one, plain and wrapped in alternating blocks of ${BLOCK}
- API stopped (baseUrl on a closed loopback port): records are retried in the background and the bounded queue drops the oldest
- direct mode: the Anthropic SDK gets a custom \`fetch\` returning a canned Response (same for plain and wrapped), so network noise is excluded
- command: \`npm run bench:sdk\` (Python: \`python3 sdk/python/bench/overhead.py --calls 20000\`, numbers copied from sdk/python/bench/RESULTS.md)

Times in microseconds per call; overhead = wrapped - plain (target: p50 overhead < 200 us).

| library | scenario | plain p50 | wrapped p50 | overhead p50 | plain p99 | wrapped p99 | overhead p99 |
|---|---|---:|---:|---:|---:|---:|---:|
${rows.join("\n")}
${pyRows.map((r) => "| Python " + r).join("\n")}

Worst Node p50 overhead: ${worst} us (${worst < 200 ? "within" : "ABOVE"} the 200 us target).

Robustness with the API down: ${robust.calls} calls (1,000 wrapped and 1,000 plain Anthropic calls over HTTP against a local stand-in upstream, 1,000 traced calls) completed with ${robust.errors} exceptions.

Delivery counters at the end of the run: \`${Object.entries(counters)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ")}\`

## Outage with a full buffer (Node)

A stand-in API answered every POST \`503\` + \`Retry-After: 1\` (the API's answer during a database
outage) for ${OUTAGE_MS / 1000} s while traced calls ran with \`maxQueueSize: ${OUTAGE_QUEUE}\`: blocks of 100 traced and
100 plain calls, then a 1 ms timer tick so the delivery loop kept retrying in between. Each call
timed on its own; the plain row shows what this machine does to any call (preemption; load
average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} CPUs).

| variant | calls | exceptions | p50 us | p99 us | p99.9 us | max us | calls > 1 ms (per s in calls) |
|---|---:|---:|---:|---:|---:|---:|---:|
| traced | ${down.calls} | ${down.exceptions} | ${down.p50_us} | ${down.p99_us} | ${down.p999_us} | ${down.max_us} | ${down.over_1ms} (${down.over_1ms_per_s}/s) |
| plain | ${down.plain.calls} | 0 | ${down.plain.p50_us} | ${down.plain.p99_us} | ${down.plain.p999_us} | ${down.plain.max_us} | ${down.plain.over_1ms} (${down.plain.over_1ms_per_s}/s) |

| dropped (oldest) | held in buffer | sent | failed | 503 answers | retry waits |
|---:|---:|---:|---:|---:|---:|
| ${down.dropped} | ${down.held} | ${down.sent} | ${down.failed} | ${down.refused_posts} | ${down.retry_waits} |

${down.exceptions === 0 ? "No call threw" : `${down.exceptions} calls THREW`}; p99.9 ${down.p999_us} us, slowest call ${down.max_us} us. Records past the bound
evicted the oldest: dropped ${down.dropped} of ${down.calls} calls (calls - buffer = ${down.calls - down.buffer}); ${down.failed} given up.
${pyOutage ? "\n" + pyOutage.trimEnd() + "\n\n(Python: copied from sdk/python/bench/RESULTS.md.)\n" : ""}`;
  writeFileSync(join(ROOT, "bench/results/sdk.md"), md);
  console.log(md);
  process.exit(robust.errors === 0 && down.exceptions === 0 ? 0 : 1);
}

void main();
