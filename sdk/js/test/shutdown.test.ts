/**
 * `flush()` and `shutdown()` without a timeout are bounded by `flushTimeoutMs` (5 s by
 * default): with the API down (refused connection) or hung (accepts, never answers) they
 * return `false` within that bound, and `shutdown()` counts every undelivered record once
 * as `unsent`. A script ending with `await shutdown()` exits. Upper bounds on elapsed time
 * are generous (the bound plus several seconds): what is tested is that they return at all.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configure, flush, shutdown, stats, trace, type DeliveryStats } from "../src/index.js";
import { DEFAULT_FLUSH_TIMEOUT_MS } from "../src/config.js";
import { runScript } from "./support/child.js";
import { closedPort, silentApi, startStandInApi } from "./support/servers.js";

/** Default bound plus slack for a loaded 2-core machine. */
const WITHIN_MS = DEFAULT_FLUSH_TIMEOUT_MS + 4000;

let api: Awaited<ReturnType<typeof startStandInApi>>;
let silent: Awaited<ReturnType<typeof silentApi>>;
beforeAll(async () => {
  api = await startStandInApi();
  silent = await silentApi();
});
afterAll(async () => {
  await api.close();
  await silent.close();
});

const echo = trace({ model: "echo" }, (s: string) => s);

/** Every record accepted is counted exactly once. */
function expectAccounted(s: DeliveryStats): void {
  expect(s.sent + s.dropped + s.rejected + s.failed + s.unsent + s.invalid + s.queued + s.inFlight).toBe(s.enqueued);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - t0 };
}

/** [what the API does, its URL, whether the library reached it (a refusal leaves no trace)]. */
const downApis: [string, () => Promise<string>, () => boolean][] = [
  ["refuses connections (closed loopback port)", () => closedPort(), () => true],
  ["accepts connections and never answers", async () => silent.url, () => silent.connections() > 0],
];

describe.each(downApis)("with an API that %s", (_name, apiUrl, reached) => {
  it("Should return false from flush() and shutdown() without a timeout within the default bound, counting the records as unsent", async () => {
    configure({ apiKey: "slk_test", baseUrl: await apiUrl(), flushIntervalMs: 10 });
    for (let i = 0; i < 3; i++) echo(`call ${i}`);

    const flushed = await timed(() => flush());
    expect(flushed.value).toBe(false);
    expect(flushed.ms).toBeLessThan(WITHIN_MS);
    // flush() keeps what it could not deliver: still queued or in flight, retried in the background.
    expect(stats()).toMatchObject({ enqueued: 3, sent: 0, unsent: 0 });
    expect(stats().queued + stats().inFlight).toBe(3);

    const stopped = await timed(() => shutdown());
    expect(stopped.value).toBe(false);
    expect(stopped.ms).toBeLessThan(WITHIN_MS);
    expect(stats()).toMatchObject({ enqueued: 3, sent: 0, unsent: 3, queued: 0, inFlight: 0 });
    expectAccounted(stats());
    expect(reached()).toBe(true);
  });
});

describe("bounded shutdown", () => {
  it("Should still honour an explicit timeout and the flushTimeoutMs option", async () => {
    configure({ apiKey: "slk_test", baseUrl: silent.url, flushIntervalMs: 10, flushTimeoutMs: 200 });
    echo("one");
    expect(await flush()).toBe(false); // the configured bound, 200 ms
    echo("two");
    const stopped = await timed(() => shutdown({ timeoutMs: 300 }));
    expect(stopped.value).toBe(false);
    expect(stopped.ms).toBeLessThan(WITHIN_MS);
    expect(stats()).toMatchObject({ enqueued: 2, unsent: 2, sent: 0 });
  });

  it("Should return true from flush() and shutdown() without a timeout when the API answers", async () => {
    api.received.length = 0;
    configure({ apiKey: "slk_test", baseUrl: api.url, flushIntervalMs: 10 });
    for (let i = 0; i < 3; i++) echo(`call ${i}`);
    expect(await flush()).toBe(true);
    echo("last");
    expect(await shutdown()).toBe(true);
    expect(stats()).toMatchObject({ enqueued: 4, sent: 4, unsent: 0, queued: 0, inFlight: 0 });
    expect(api.accepted()).toHaveLength(4);
  });
});

const SCRIPT = join(import.meta.dirname, "fixtures", "shutdown-script.ts");

describe("a script ending with `await shutdown()`", () => {
  it.each(downApis)("Should exit when the API %s, reporting false and 3 unsent", async (_name, apiUrl) => {
    const result = await runScript(SCRIPT, { SERVICE_API_KEY: "slk_script", SIGHTLINE_BASE_URL: await apiUrl() });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout.trim()) as { ok: boolean; stats: DeliveryStats };
    expect(report.ok).toBe(false);
    expect(report.stats).toMatchObject({ enqueued: 3, sent: 0, unsent: 3, queued: 0, inFlight: 0 });
    expect(result.ms).toBeLessThan(WITHIN_MS + 10_000); // the bound plus tsx start-up
  });

  it("Should exit reporting true when the API answers", async () => {
    api.received.length = 0;
    const result = await runScript(SCRIPT, { SERVICE_API_KEY: "slk_script", SIGHTLINE_BASE_URL: api.url });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim())).toMatchObject({ ok: true, stats: { sent: 3, unsent: 0 } });
    expect(api.accepted()).toHaveLength(3);
  });
});
