/** Upstream choice: the route table, the allow-listed header, and what is refused. */
import { describe, expect, it } from "vitest";
import { proxyConfig } from "../../workers/proxy/src/config";
import { resolveUpstream, type UpstreamRefusal, type UpstreamTarget } from "../../workers/proxy/src/upstreams";
import { chatBody, directProxy, logsFor, newKey, newRun, post, testEnv, upstreamSaw } from "./helpers";

const resolve = (path: string, env: Record<string, string> = {}, headers: Record<string, string> = {}) =>
  resolveUpstream(
    new Request(`http://proxy.test${path}`, { headers }),
    proxyConfig({
      API: testEnv.API,
      LOG_QUEUE: testEnv.LOG_QUEUE,
      LOG_PAYLOADS: testEnv.LOG_PAYLOADS,
      ...env,
    }),
  );

describe("route table", () => {
  it.each([
    ["/v1/chat/completions", "https://api.openai.com/v1/chat/completions", "openai"],
    ["/openai/v1/embeddings", "https://api.openai.com/v1/embeddings", "openai"],
    ["/groq/v1/chat/completions", "https://api.groq.com/openai/v1/chat/completions", "groq"],
    ["/together/v1/chat/completions", "https://api.together.xyz/v1/chat/completions", "together"],
    ["/openrouter/v1/chat/completions", "https://openrouter.ai/api/v1/chat/completions", "openrouter"],
    ["/mistral/v1/chat/completions", "https://api.mistral.ai/v1/chat/completions", "mistral"],
    ["/deepseek/chat/completions", "https://api.deepseek.com/chat/completions", "deepseek"],
    [
      "/azure/my-res/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21",
      "https://my-res.openai.azure.com/openai/deployments/gpt4o/chat/completions?api-version=2024-10-21",
      "azure",
    ],
    ["/azure/my-res/v1/chat/completions", "https://my-res.openai.azure.com/openai/v1/chat/completions", "azure"],
  ])("Should send %s to %s", (path, url, provider) => {
    const target = resolve(path) as UpstreamTarget;
    expect(target.url.href).toBe(url);
    expect(target.provider).toBe(provider);
  });

  it("Should use UPSTREAM_BASE_URL and keep its path", () => {
    const target = resolve("/v1/models?limit=2", { UPSTREAM_BASE_URL: "https://gw.example/openai/" }) as UpstreamTarget;
    expect(target.url.href).toBe("https://gw.example/openai/v1/models?limit=2");
    expect(target.provider).toBe("custom");
  });

  it("Should take the Azure deployment as the model of last resort", () => {
    expect((resolve("/azure/res1/openai/deployments/prod-4o/chat/completions") as UpstreamTarget).deployment).toBe("prod-4o");
  });

  it.each(["/azure/evil.com%2F/x", "/azure/-bad/x", "/azure/"])("Should refuse an Azure resource that is not a name: %s", (path) => {
    expect((resolve(path) as UpstreamRefusal).status).toBe(400);
  });

  it("Should refuse X-Upstream-Base-URL combined with a named route", () => {
    expect(resolve("/groq/v1/chat/completions", { UPSTREAM_ALLOWLIST: "https://a.example" }, { "X-Upstream-Base-URL": "https://a.example" })).toMatchObject({
      status: 400,
    });
  });
});

describe("X-Upstream-Base-URL", () => {
  it("Should forward to an allow-listed origin", async () => {
    const key = newKey();
    const run = newRun();
    const proxy = directProxy({ UPSTREAM_BASE_URL: "https://api.openai.com" });
    const res = await post(proxy.fetch, "/v1/chat/completions", key, chatBody(), { "X-Upstream-Base-URL": testEnv.TEST_UPSTREAM_URL, "x-test-run": run });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await proxy.settled();
    const [seen] = await upstreamSaw(run);
    expect(seen!.headers["x-upstream-base-url"]).toBeUndefined();
    const [log] = await logsFor(key);
    expect(log!.body.metadata).toMatchObject({ route: "header", upstream: testEnv.TEST_UPSTREAM_URL });
  });

  it("Should refuse an origin outside the allow-list with 403, sending nothing", async () => {
    const run = newRun();
    const res = await post(directProxy().fetch, "/v1/chat/completions", newKey(), chatBody(), {
      "X-Upstream-Base-URL": "http://169.254.169.254",
      "x-test-run": run,
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ detail: expect.stringContaining("not in UPSTREAM_ALLOWLIST") });
    expect(await upstreamSaw(run)).toHaveLength(0);
  });

  it("Should refuse the header with 403 when the allow-list is empty", async () => {
    const res = await post(directProxy({ UPSTREAM_ALLOWLIST: "" }).fetch, "/v1/chat/completions", newKey(), chatBody(), {
      "X-Upstream-Base-URL": testEnv.TEST_UPSTREAM_URL,
    });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/not enabled/);
  });

  it("Should send /groq/ calls to Groq, not to the default upstream", async () => {
    const key = newKey();
    const run = newRun();
    // Groq is not reachable from the test sandbox within 1 ms: the 502 names where it went.
    const proxy = directProxy({ UPSTREAM_TIMEOUT_MS: "1" });
    const res = await post(proxy.fetch, "/groq/v1/chat/completions", key, chatBody({ model: "llama-3.3-70b-versatile" }), { "x-test-run": run });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { detail: string }).detail).toContain("https://api.groq.com");
    expect(await upstreamSaw(run)).toHaveLength(0);
    await proxy.settled();
    const [log] = await logsFor(key);
    expect(log!.body).toMatchObject({
      provider: "groq",
      model: "llama-3.3-70b-versatile",
      metadata: { route: "groq", endpoint: "/openai/v1/chat/completions" },
    });
  });
});
