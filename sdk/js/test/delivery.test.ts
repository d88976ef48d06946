import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { configure, flush, shutdown, stats, trace, wrapAnthropic } from "../src/index.js";
import { SightlineHTTPError, parseRetryAfter, backoffDelay, createPost, outageDelay } from "../src/transport.js";
import { encodeEntry } from "../src/entry.js";
import { closedPort, startStandInApi, waitFor } from "./support/servers.js";
import { useStandIns } from "./support/lifecycle.js";

const servers = useStandIns({ configure: false });

const echo = trace({ model: "echo" }, (s: string) => s);

/** The first argument of each logged `echo` call, sorted: which calls were delivered, in any order. */
const firstArgs = (logs: { request_body: { args: unknown[] } }[]) => logs.map((l) => l.request_body.args[0]).sort();

describe("delivery", () => {
  it("Should leave the application unaffected while the API is unreachable, keep the records, then deliver each once", async () => {
    const errors: unknown[] = [];
    const down = await closedPort();
    configure({ apiKey: "slk_test", baseUrl: down, flushIntervalMs: 10, maxRetries: 0, backoffBaseMs: 20, backoffMaxMs: 50, onError: (e) => errors.push(e) });
    const client = wrapAnthropic(new Anthropic({ apiKey: "x", baseURL: servers.upstream.url, maxRetries: 0 }));
    const message = await client.messages.create({ model: "claude-3-5-haiku-latest", max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    expect(message.id).toBe("msg_01XFDUDYJgAACzvnptvVoYEL");
    expect(echo("still works")).toBe("still works");
    await waitFor(() => stats().retries >= 3);
    expect(stats()).toMatchObject({ sent: 0, failed: 0, dropped: 0, enqueued: 2 });
    expect(stats().queued + stats().inFlight).toBe(2);
    const recovered = await startStandInApi(undefined, Number(new URL(down).port));
    try {
      expect(await flush({ timeoutMs: 5000 })).toBe(true);
      expect(
        recovered
          .accepted()
          .map((l) => l.model)
          .sort(),
      ).toEqual(["claude-3-5-haiku-latest", "echo"]);
    } finally {
      await recovered.close();
    }
    expect(stats()).toMatchObject({ sent: 2, failed: 0, queued: 0, inFlight: 0 });
    expect(errors).toEqual([]); // an outage is not an error: nothing was given up
  });

  it("Should retry 503 + Retry-After through an outage longer than maxRetries and deliver every record once", async () => {
    const outageEnds = Date.now() + 1500;
    servers.api.setScript(() =>
      Date.now() < outageEnds ? { status: 503, headers: { "Retry-After": "1" }, body: { detail: "database unavailable" } } : { status: 202 },
    );
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 10, maxRetries: 1 });
    for (let i = 0; i < 20; i++) echo(`call ${i}`);
    expect(await flush({ timeoutMs: 10_000 })).toBe(true);
    const delivered = servers.api.accepted().map((l) => l.request_body.args[0]);
    expect(delivered.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `call ${i}`).sort()); // every record, once
    const refusals = servers.api.received.filter((r) => r.status === 503);
    expect(refusals.length).toBeGreaterThanOrEqual(2); // the outage outlasted maxRetries: 1
    // Retry-After: 1 honoured: the POSTs of one round (`concurrency` lanes) arrive together,
    // and every gap between rounds is at least about a second.
    const times = refusals.map((r) => r.at as number).sort((a, b) => a - b);
    const roundGaps = times
      .slice(1)
      .map((t, i) => t - (times[i] as number))
      .filter((gap) => gap > 200);
    expect(roundGaps.length).toBeGreaterThanOrEqual(1);
    for (const gap of roundGaps) expect(gap).toBeGreaterThanOrEqual(900);
    expect(stats()).toMatchObject({ sent: 20, failed: 0, dropped: 0, rejected: 0 });
  });

  it("Should drop the OLDEST records and count them when the buffer fills during an outage", async () => {
    let down = true;
    servers.api.setScript(() => (down ? { status: 503, body: { detail: "database unavailable" } } : { status: 202 }));
    configure({
      apiKey: "slk_test",
      baseUrl: servers.api.url,
      flushIntervalMs: 10,
      maxQueueSize: 5,
      batchSize: 5,
      concurrency: 1,
      backoffBaseMs: 50,
      backoffMaxMs: 50,
    });
    for (let i = 0; i < 3; i++) echo(`call ${i}`);
    await waitFor(() => servers.api.received.length >= 1);
    for (let i = 3; i < 7; i++) echo(`call ${i}`);
    // Once a POST made after these calls has failed, the buffer holds the newest five.
    const before = servers.api.received.length;
    await waitFor(() => servers.api.received.length > before);
    await waitFor(() => stats().dropped === 2);
    down = false;
    expect(await flush({ timeoutMs: 5000 })).toBe(true);
    expect(firstArgs(servers.api.accepted())).toEqual(["call 2", "call 3", "call 4", "call 5", "call 6"]);
    expect(stats()).toMatchObject({ sent: 5, dropped: 2, failed: 0 });
  });

  it("Should give up a record that fails on its own (500) after maxRetries", async () => {
    servers.api.setScript(() => ({ status: 500, body: { detail: "bug" } }));
    const errors: unknown[] = [];
    configure({
      apiKey: "slk_test",
      baseUrl: servers.api.url,
      flushIntervalMs: 10,
      maxRetries: 2,
      backoffBaseMs: 5,
      backoffMaxMs: 20,
      onError: (e) => errors.push(e),
    });
    echo("poison");
    expect(await flush({ timeoutMs: 5000 })).toBe(true);
    expect(stats()).toMatchObject({ sent: 0, failed: 1, retries: 2 });
    expect(servers.api.logs()).toHaveLength(3);
    expect(errors[0]).toMatchObject({ status: 500, detail: "bug" });
  });

  it("Should honour Retry-After on 429 and then deliver", async () => {
    servers.api.setScript((n) =>
      n === 0 ? { status: 429, headers: { "Retry-After": "1" }, body: { detail: "monthly request limit reached" } } : { status: 202 },
    );
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 10, backoffBaseMs: 0 });
    const t0 = Date.now();
    echo("a");
    expect(await flush({ timeoutMs: 5000 })).toBe(true);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(stats()).toMatchObject({ sent: 1, retries: 1, failed: 0 });
    expect(servers.api.logs()).toHaveLength(2);
  });

  it("Should cap Retry-After at retryAfterMaxMs", async () => {
    servers.api.setScript((n) => (n === 0 ? { status: 503, headers: { "Retry-After": "3600" } } : { status: 202 }));
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 10, retryAfterMaxMs: 50 });
    echo("a");
    expect(await flush({ timeoutMs: 3000 })).toBe(true);
    expect(stats()).toMatchObject({ sent: 1, retries: 1 });
  });

  it("Should not retry a 401 and report it as rejected", async () => {
    servers.api.setScript(() => ({ status: 401, body: { detail: "invalid or revoked API key" } }));
    const errors: unknown[] = [];
    configure({ apiKey: "slk_revoked", baseUrl: servers.api.url, flushIntervalMs: 10, onError: (e) => errors.push(e) });
    echo("a");
    expect(await flush({ timeoutMs: 3000 })).toBe(true);
    expect(stats()).toMatchObject({ rejected: 1, retries: 0, failed: 0, sent: 0 });
    expect(servers.api.logs()).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SightlineHTTPError);
    expect(errors[0]).toMatchObject({ status: 401, detail: "invalid or revoked API key" });
  });

  it("Should drop the OLDEST records when the queue is full", async () => {
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, maxQueueSize: 3, batchSize: 100, flushIntervalMs: 60_000 });
    for (let i = 0; i < 5; i++) echo(`call ${i}`);
    expect(stats()).toMatchObject({ queued: 3, dropped: 2, enqueued: 5 });
    expect(await flush({ timeoutMs: 3000 })).toBe(true);
    expect(firstArgs(servers.api.logs())).toEqual(["call 2", "call 3", "call 4"]);
  });

  it("Should resolve flush() false when the timeout passes first, and keep delivering afterwards", async () => {
    servers.api.setScript((n) => (n === 0 ? { status: 503, headers: { "Retry-After": "1" } } : { status: 202 }));
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 10 });
    echo("slow");
    const t0 = Date.now();
    expect(await flush({ timeoutMs: 200 })).toBe(false);
    expect(Date.now() - t0).toBeLessThan(900);
    expect(await flush({ timeoutMs: 5000 })).toBe(true);
    expect(stats().sent).toBe(1);
  });

  it("Should send in the background without flush, batching by batchSize", async () => {
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, batchSize: 5, flushIntervalMs: 60_000, concurrency: 2 });
    for (let i = 0; i < 12; i++) echo(String(i));
    const deadline = Date.now() + 3000;
    while (stats().sent < 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(stats().sent).toBe(10); // two full batches; the last 2 wait for the interval
    expect(stats().queued).toBe(2);
  });

  it("Should count records sent after shutdown as nothing and stop logging", async () => {
    configure({ apiKey: "slk_test", baseUrl: servers.api.url, flushIntervalMs: 10 });
    echo("before");
    expect(await shutdown({ timeoutMs: 3000 })).toBe(true);
    echo("after");
    await new Promise((r) => setTimeout(r, 50));
    expect(servers.api.logs()).toHaveLength(1);
    expect(stats()).toMatchObject({ sent: 1, enqueued: 1 });
  });
});

describe("transport and payload helpers", () => {
  it("Should parse Retry-After seconds and HTTP-dates", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(parseRetryAfter("soon")).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });

  it("Should classify the API's answers: retry 5xx/408/429, hold outages, reject other 4xx", async () => {
    const post = createPost(`${servers.api.url}/internal/log`, "slk_x", 2000);
    const cases: [number, Record<string, string>, string, boolean][] = [
      [202, {}, "ok", false],
      [503, { "Retry-After": "5" }, "retry", true],
      [429, {}, "retry", true],
      [502, {}, "retry", true],
      [500, {}, "retry", false],
      [500, { "Retry-After": "2" }, "retry", true],
      [408, {}, "retry", false],
      [401, {}, "rejected", false],
      [413, {}, "rejected", false],
    ];
    for (const [status, headers, kind, serviceWide] of cases) {
      servers.api.setScript(() => ({ status, headers }));
      const outcome = await post("{}");
      expect([outcome.kind, Boolean(outcome.serviceWide)], `${status} ${JSON.stringify(headers)}`).toEqual([kind, serviceWide]);
    }
    servers.api.setScript(() => ({ status: 503, headers: { "Retry-After": "5" } }));
    expect((await post("{}")).retryAfterMs).toBe(5000);
    expect(await createPost(`${await closedPort()}/internal/log`, "slk_x", 2000)("{}")).toMatchObject({ kind: "retry", serviceWide: true });
  });

  it("Should wait the capped Retry-After during an outage, else a backoff over the failed rounds", () => {
    const cfg = { backoffBaseMs: 500, backoffMaxMs: 10_000, retryAfterMaxMs: 3000 };
    expect(outageDelay(100_000, 0, cfg)).toBe(3000);
    expect(outageDelay(1000, 5, cfg)).toBe(1000);
    for (let round = 0; round < 8; round++) expect(outageDelay(undefined, round, cfg)).toBeLessThanOrEqual(Math.min(10_000, 500 * 2 ** round));
  });

  it("Should draw full-jitter backoff within the capped ceiling", () => {
    expect(backoffDelay(3, 500, 10_000, () => 1)).toBe(4000);
    expect(backoffDelay(10, 500, 10_000, () => 1)).toBe(10_000);
    expect(backoffDelay(0, 500, 10_000, () => 0)).toBe(0);
  });

  it("Should shrink records above the size limit", () => {
    const body = encodeEntry(
      { model: "m", provider: "custom", request: { prompt: "x".repeat(10_000) }, response: "y".repeat(200_000), startedAt: Date.now(), latencyMs: 1.6 },
      100_000,
    );
    const payload = JSON.parse(body);
    expect(body.length).toBeLessThanOrEqual(100_000);
    expect(payload.request_body).toEqual({ prompt: "x".repeat(10_000) });
    expect(payload.response_body).toMatchObject({ _sightline_truncated: true });
    expect(payload.metadata.truncated).toBe(true);
    expect(payload.latency_ms).toBe(2);
  });

  it("Should convert values that are not JSON", () => {
    const cyclic: Record<string, unknown> = { big: 10n, when: new Date(0), nan: Number.NaN, map: new Map([["k", 1]]), fn: () => 1 };
    cyclic.self = cyclic;
    const payload = JSON.parse(encodeEntry({ model: "", provider: "", request: cyclic, response: undefined, startedAt: 0, latencyMs: 0 }));
    expect(payload.model).toBe("unknown");
    expect(payload.provider).toBe("custom");
    expect(payload.request_body).toEqual({ big: "10", when: "1970-01-01T00:00:00.000Z", nan: "NaN", map: { k: 1 }, self: "<cycle>" });
  });
});
