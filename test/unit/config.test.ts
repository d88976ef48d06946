/** The config schemas of every worker: defaults, parsed values, and a bad variable named in the error. */
import { describe, expect, it } from "vitest";
import { ALERT_DEFAULTS } from "../../src/alerts/config";
import { DEFAULT_TIER_LIMITS, DEFAULT_TIER_RETENTION } from "../../src/billing/tiers";
import { apiConfig } from "../../src/config/api";
import { ConfigError } from "../../src/config/error";
import { checkVars } from "../../src/config/parse";
import { apiVars } from "../../src/config/api";
import { DEFAULT_BODY_MAX_BYTES } from "../../src/http/body-limit";
import { dashboardConfig } from "../../dashboard/server/config";
import { proxyConfig } from "../../workers/proxy/src/config";
import { contentSafetyJudge } from "../../src/scoring/scorers/content_safety/judge";
import { scorerConfig } from "../../workers/scorer/src/config";

/** The message of the `ConfigError` that `parse(env)` throws. */
function problem(parse: (env: object) => unknown, env: object): string {
  try {
    parse(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected a ConfigError");
}

describe("API config", () => {
  it("Should apply the defaults when nothing is set", () => {
    const config = apiConfig({});
    expect(config).toMatchObject({
      docsEnabled: true,
      logMaxBytes: DEFAULT_BODY_MAX_BYTES,
      tierLimits: DEFAULT_TIER_LIMITS,
      tierRetention: DEFAULT_TIER_RETENTION,
      alerts: ALERT_DEFAULTS,
    });
    expect(config.prices).toEqual({ pro: null, team: null, enterprise: null });
    expect(config.returnOrigins.size).toBe(0);
    expect(config.db).toEqual({ hyperdrive: undefined, databaseUrl: undefined, neonWsProxy: undefined });
  });

  it("Should parse numbers, tier tables, origins, prices and flags", () => {
    const config = apiConfig({
      DOCS_ENABLED: "false",
      LOG_MAX_BYTES: "1024",
      TIER_LIMITS: '{"free": 50}',
      STRIPE_PRICE_PRO: " price_1 ",
      STRIPE_PRICE_TEAM: "",
      BILLING_RETURN_ORIGINS: "https://app.example.com/x, http://localhost:3000",
      STRIPE_API_BASE: "http://127.0.0.1:12111",
    });
    expect(config.docsEnabled).toBe(false);
    expect(config.logMaxBytes).toBe(1024);
    expect(config.tierLimits).toEqual({ ...DEFAULT_TIER_LIMITS, free: 50 });
    expect(config.prices).toEqual({ pro: "price_1", team: null, enterprise: null });
    expect([...config.returnOrigins]).toEqual(["https://app.example.com", "http://localhost:3000"]);
    expect(config.stripe.apiBase).toBe("http://127.0.0.1:12111");
  });

  it("Should parse each env object once", () => {
    const env = { LOG_MAX_BYTES: "10" };
    expect(apiConfig(env)).toBe(apiConfig(env));
  });

  it("Should name each bad variable and what was expected", () => {
    expect(problem(apiConfig, { LOG_MAX_BYTES: "abc" })).toBe('LOG_MAX_BYTES: expected a positive integer, got "abc"');
    expect(problem(apiConfig, { TIER_LIMITS: "{free: 50}" })).toMatch(/^TIER_LIMITS: expected a JSON object of free\/pro\/team\/enterprise/);
    expect(problem(apiConfig, { TIER_LIMITS: '{"gold": 5}' })).toMatch(/^TIER_LIMITS: /);
    expect(problem(apiConfig, { DOCS_ENABLED: "yes" })).toBe('DOCS_ENABLED: expected "true" or "false", got "yes"');
    expect(problem(apiConfig, { STRIPE_API_BASE: "ftp://x" })).toBe('STRIPE_API_BASE: expected an http(s) URL, got "ftp://x"');
    const both = problem(apiConfig, { LOG_MAX_BYTES: "0", BILLING_RETURN_ORIGINS: "nope" });
    expect(both).toContain("LOG_MAX_BYTES: expected a positive integer");
    expect(both).toContain('BILLING_RETURN_ORIGINS: expected comma-separated http(s) origins, got "nope"');
  });

  it("Should check only the variables a wrangler config sets (npm run dev, npm run deploy)", () => {
    expect(() => checkVars(apiVars, { LOG_MAX_BYTES: "2097152", TIER_LIMITS: "" })).not.toThrow();
    expect(() => checkVars(apiVars, { LOG_MAX_BYTES: "2MiB" })).toThrow('LOG_MAX_BYTES: expected a positive integer, got "2MiB"');
  });
});

describe("scorer config", () => {
  it("Should apply the defaults", () => {
    expect(scorerConfig({})).toMatchObject({ alerts: ALERT_DEFAULTS, rescore: { onUpgrade: true, upgradeDays: 7 }, tierRetention: DEFAULT_TIER_RETENTION });
  });

  it("Should name a bad variable", () => {
    expect(problem(scorerConfig, { RESCORE_UPGRADE_DAYS: "-1" })).toBe('RESCORE_UPGRADE_DAYS: expected a positive integer, got "-1"');
    expect(problem(scorerConfig, { TIER_RETENTION_DAYS: "[]" })).toMatch(/^TIER_RETENTION_DAYS: /);
    expect(problem(scorerConfig, { JUDGE_BASE_URL: "ftp://judge" })).toMatch(/^JUDGE_BASE_URL: expected an http\(s\) URL/);
    expect(problem(scorerConfig, { JUDGE_BASE_URL: "http://127.0.0.1:8000/v1" })).toMatch(/^JUDGE_MODEL: expected the model name/);
    expect(problem(scorerConfig, { JUDGE_TIMEOUT_MS: "0" })).toBe('JUDGE_TIMEOUT_MS: expected a positive integer, got "0"');
  });

  it("Should choose the guard-model backend: none, Workers AI, or the OpenAI-compatible endpoint first", () => {
    expect(scorerConfig({}).judge).toBeUndefined();
    const ai = scorerConfig({ AI: { run: async () => ({}) } }).judge!;
    expect(ai.timeoutMs).toBe(5000);
    expect(ai.backend.model("llama_guard")).toBe("@cf/meta/llama-guard-3-8b");
    expect(ai.backend.model("policy")).toBe("@cf/meta/llama-3.1-8b-instruct-fast");
    expect(scorerConfig({ AI: { run: async () => ({}) }, JUDGE_AI_MODEL: "@cf/meta/llama-3.3-70b-instruct-fp8-fast" }).judge!.backend.model("policy")).toBe(
      "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
    );
    const open = scorerConfig({ AI: { run: async () => ({}) }, JUDGE_BASE_URL: "http://127.0.0.1:8000/v1", JUDGE_MODEL: "qwen3:8b", JUDGE_TIMEOUT_MS: "2000" })
      .judge!;
    expect(open.timeoutMs).toBe(2000);
    expect(open.backend.model("llama_guard")).toBe("qwen3:8b");
    expect(open.backend.kind(contentSafetyJudge)).toBe("policy");
  });
});

describe("proxy config", () => {
  it("Should apply the defaults", () => {
    expect(proxyConfig({})).toMatchObject({
      upstreamBase: "https://api.openai.com",
      upstreamProvider: "openai",
      upstreamTimeoutMs: 600_000,
      keyCheckTimeoutMs: 1_000,
    });
    expect(proxyConfig({}).upstreamAllowlist.size).toBe(0);
  });

  it("Should name a bad variable", () => {
    expect(problem(proxyConfig, { UPSTREAM_TIMEOUT_MS: "soon" })).toBe('UPSTREAM_TIMEOUT_MS: expected a positive integer, got "soon"');
    expect(problem(proxyConfig, { UPSTREAM_BASE_URL: "api.openai.com" })).toBe('UPSTREAM_BASE_URL: expected an http(s) URL, got "api.openai.com"');
  });
});

describe("dashboard server config", () => {
  const env = { INTERNAL_API_SECRET: "s", BETTER_AUTH_SECRET: "b", DASHBOARD_URL: "http://localhost:8788" };

  it("Should parse the required variables", () => {
    expect(dashboardConfig(env)).toMatchObject({ dashboardUrl: "http://localhost:8788", publicApiUrl: "", internalApiSecret: "s" });
  });

  it("Should name a missing or bad variable", () => {
    expect(problem(dashboardConfig, { ...env, DASHBOARD_URL: "localhost" })).toBe('DASHBOARD_URL: expected an http(s) URL, got "localhost"');
    expect(problem(dashboardConfig, { ...env, BETTER_AUTH_SECRET: undefined })).toBe("BETTER_AUTH_SECRET: expected a non-empty secret, got nothing");
  });
});
