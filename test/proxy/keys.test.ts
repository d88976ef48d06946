/**
 * The proxy's Sightline key check (workers/proxy/src/key-check.ts) against the API stand-in's
 * GET /internal/keys/check: refused keys get 401 `{detail}` before any response byte, live keys
 * pass, and a check that cannot answer lets the call through (fail open).
 */
import { describe, expect, it } from "vitest";
import { KEY_CACHE_MS, KEY_REFRESH_MS } from "../../workers/proxy/src/key-check";
import { bytesOf, chatBody, checksOf, directProxy, fixtureBytes, keyIs, logsFor, newKey, newRun, openai, post, upstreamSaw } from "./helpers";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Collects console.error lines while `fn` runs. */
async function errorsDuring(fn: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const original = console.error;
  console.error = (line: string) => lines.push(line);
  try {
    await fn();
  } finally {
    console.error = original;
  }
  return lines;
}

describe("refused keys", () => {
  it("Should answer 401 {detail} for an unknown well-formed key and log nothing", async () => {
    const key = newKey();
    await keyIs(key, { refuse: "unknown" });
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ detail: "invalid API key", error: { message: "invalid API key", code: "invalid_sightline_key" } });
    await proxy.settled();
    expect(await logsFor(key, 1, 300)).toEqual([]);
  });

  it("Should answer 403 {detail} for a key without the ingest scope, and log nothing", async () => {
    const key = newKey();
    await keyIs(key, { noIngest: true });
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ detail: "this API key lacks the ingest scope", error: { message: "this API key lacks the ingest scope" } });
    await proxy.settled();
    expect(await logsFor(key, 1, 300)).toEqual([]);
  });

  it("Should raise AuthenticationError in the OpenAI SDK for a revoked key", async () => {
    const key = newKey();
    await keyIs(key, { refuse: "revoked" });
    const proxy = directProxy();
    const err = await openai(key, proxy.fetch)
      .chat.completions.create(chatBody() as never)
      .catch((e: unknown) => e);
    expect(err).toMatchObject({
      status: 401,
      message: "401 API key has been revoked",
      error: { message: "API key has been revoked", type: "sightline_proxy_error", code: "invalid_sightline_key" },
    });
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).constructor.name).toBe("AuthenticationError");
  });

  it("Should refuse a key revoked after use within one second", async () => {
    const key = newKey();
    const proxy = directProxy();
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    await keyIs(key, { refuse: "revoked" });
    await sleep(KEY_CACHE_MS + 20);
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ detail: "API key has been revoked" });
    await proxy.settled();
    expect(await logsFor(key, 2, 300)).toHaveLength(1);
  });

  it("Should accept a rotated key until it expires, then refuse it", async () => {
    const key = newKey();
    await keyIs(key, { expiresAt: Date.now() + 1_500 });
    const proxy = directProxy();
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    await sleep(1_500 + KEY_CACHE_MS + 20);
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(401);
    expect(((await res.json()) as { detail: string }).detail).toContain("expired");
    const fresh = newKey(); // the replacement key works throughout
    expect((await post(proxy.fetch, "/v1/chat/completions", fresh, chatBody())).status).toBe(200);
  });

  it("Should hold a stream until a slower check refuses it, sending no stream byte", async () => {
    const key = newKey();
    const run = newRun();
    await keyIs(key, { refuse: "revoked", delayMs: 400 });
    const proxy = directProxy();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-fixture": "chat-stream", "x-test-run": run });
    expect((await upstreamSaw(run)).length).toBe(1); // the upstream answered before the check did
    expect(res.status).toBe(401);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(await res.json()).toMatchObject({ detail: "API key has been revoked" });
  });

  it("Should cancel the upstream call when the check refuses first", async () => {
    const key = newKey();
    const run = newRun();
    await keyIs(key, { refuse: "unknown" });
    const proxy = directProxy();
    const started = Date.now();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "x-test-hang": "1", "x-test-run": run });
    expect(res.status).toBe(401);
    expect(Date.now() - started).toBeLessThan(5_000); // not the upstream timeout (600 s)
    await sleep(100);
    expect((await upstreamSaw(run))[0]?.closedEarly).toBe(true);
  });

  it("Should refuse a malformed key at once, without asking the API", async () => {
    const key = `slk_${"z".repeat(48)}`;
    const res = await post(directProxy().fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(401);
    expect(await checksOf(key)).toBe(0);
  });
});

describe("live keys", () => {
  it("Should wait for a check slower than the upstream, then answer in full", async () => {
    const key = newKey();
    await keyIs(key, { delayMs: 300 });
    const proxy = directProxy();
    const started = Date.now();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody({ stream: true }), { "x-test-fixture": "chat-stream" });
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(await bytesOf(res)).toEqual(await fixtureBytes("chat-stream"));
  });

  it("Should reuse a verdict for a second, then ask again", async () => {
    const key = newKey();
    const proxy = directProxy();
    for (let i = 0; i < 3; i++) expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    expect(await checksOf(key)).toBe(1);
    await sleep(KEY_CACHE_MS + 20);
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    expect(await checksOf(key)).toBe(2);
  });
});

describe("refresh ahead", () => {
  it("Should re-check an accepted key after half a second in the background, without holding the call", async () => {
    const key = newKey();
    const proxy = directProxy();
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    expect(await checksOf(key)).toBe(1);
    await keyIs(key, { delayMs: 3_000 }); // the re-check is held for 3 s: a call that waited for it would take as long
    await sleep(KEY_REFRESH_MS + 20);
    const started = Date.now();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(res.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_500);
    // One background re-check, however many calls arrive while it is out.
    for (let i = 0; i < 3; i++) expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    await proxy.settled();
    expect(await checksOf(key)).toBe(2);
  });

  it("Should refuse a key revoked after use within half a second plus a check under steady traffic", async () => {
    const key = newKey();
    // Records sent alone: waiting for the batching window would eat into the verdict's second.
    const proxy = directProxy({ LOG_BATCH_WINDOW_MS: "0" });
    const firstCheck = Date.now();
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    await keyIs(key, { refuse: "revoked" });
    await sleep(KEY_REFRESH_MS + 20);
    // Still within the verdict's second: served, and the background re-check learns of the revocation.
    expect((await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).status).toBe(200);
    await proxy.settled();
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
    expect(Date.now() - firstCheck).toBeLessThan(KEY_CACHE_MS); // the old verdict would still be valid
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ detail: "API key has been revoked" });
  });
});

describe("a key check that cannot answer (fail open)", () => {
  it.each([
    ["answers 503", { status: 503 }],
    ["throws", { throw: true as const }],
    ["hangs past KEY_CHECK_TIMEOUT_MS", { hang: true as const }],
  ])("Should forward and log the call when the check %s", async (_, state) => {
    const key = newKey();
    await keyIs(key, state);
    const proxy = directProxy({ KEY_CHECK_TIMEOUT_MS: "200" });
    let res!: Response;
    const errors = await errorsDuring(async () => {
      res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody());
      expect(await bytesOf(res)).toEqual(await fixtureBytes("chat-completion"));
      await proxy.settled();
    });
    expect(res.status).toBe(200);
    expect(await logsFor(key)).toHaveLength(1);
    // The line names the call it belongs to (src/logger.ts context), as every line of a proxied call does.
    expect(errors.map((l) => JSON.parse(l) as { msg: string })).toEqual([
      expect.objectContaining({ level: "error", msg: expect.stringContaining("fail open"), http_request_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }),
    ]);
    expect(errors.join("\n")).not.toContain(key);
    // An unanswered check is not cached: the next call asks again.
    await errorsDuring(async () => void (await post(proxy.fetch, "/v1/chat/completions", key, chatBody())).body?.cancel());
    expect(await checksOf(key)).toBe(2);
  });
});
