import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { TEST_INTERNAL_SECRET } from "./test/setup/constants.ts";

/**
 * Two projects:
 * - `unit`: pure modules (scorers, quota arithmetic, SSE parsing) in Node.
 * - `workers`: the API worker inside workerd (wrangler.jsonc bindings) against the embedded
 *   PostgreSQL that `test/setup/global.ts` starts; its address reaches miniflare via `inject`.
 *   The free tier's limit is lowered to 50 so quota tests stay small.
 */
/** The addresses test/setup/global.ts provides to workerd projects. */
type Inject = (key: "databaseUrl" | "neonWsProxy") => string;
/** What `cloudflareTest` takes (its options object, not the function form). */
type PoolOptions = Exclude<Parameters<typeof cloudflareTest>[0], (...args: never[]) => unknown>;

/** Bindings every workerd project gets on top of its wrangler.jsonc. */
const testBindings = (inject: Inject) => ({
  INTERNAL_API_SECRET: TEST_INTERNAL_SECRET,
  TIER_LIMITS: JSON.stringify({ free: 50 }),
  LOG_MAX_BYTES: String(1024 * 1024),
  TEST_DATABASE_URL: inject("databaseUrl"),
  TEST_NEON_WSPROXY: inject("neonWsProxy"),
});

/**
 * An auxiliary Miniflare worker `name` running test/proxy/log-sink.mjs with the payload bucket,
 * recording every message of `queue`. Delivers at once: tests wait for the message, not for a
 * batch to fill.
 */
const logSinkWorker = (name: string, queue: string) => ({
  name,
  modules: true,
  scriptPath: "./test/proxy/log-sink.mjs",
  compatibilityDate: "2026-11-01",
  r2Buckets: { LOG_PAYLOADS: "sightline-log-payloads" },
  queueConsumers: { [queue]: { maxBatchSize: 100, maxBatchTimeout: 0 } },
});

/**
 * Options of a workerd project whose worker uses the test PostgreSQL: the worker's wrangler
 * config, HYPERDRIVE pointed at the database, `testBindings` plus the project's `bindings`, and
 * any further Miniflare options (queues, service bindings, auxiliary workers).
 */
const onTestDatabase = (
  inject: Inject,
  configPath: string,
  bindings: Record<string, string>,
  miniflare: Omit<NonNullable<PoolOptions["miniflare"]>, "bindings" | "hyperdrives"> = {},
): PoolOptions => ({
  wrangler: { configPath },
  miniflare: { hyperdrives: { HYPERDRIVE: inject("databaseUrl") }, bindings: { ...testBindings(inject), ...bindings }, ...miniflare },
});

export default defineConfig({
  test: {
    // One PostgreSQL (and Neon relay) for every project; addresses reach workerd via inject.
    globalSetup: ["test/setup/global.ts"],
    projects: [
      {
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => {
            // Billing talks to a local Stripe API stand-in (test/setup/stripe.ts).
            const { stripeTestBindings } = await import("./test/setup/stripe.ts");
            // Durable capture tests run the real proxy handler against the upstream stand-in and
            // this worker's own log-records consumer (test/api/capture-queue.test.ts).
            const { startStandIns } = await import("./test/proxy/stand-ins.ts");
            const { upstreamUrl } = await startStandIns();
            // Alert webhook tests POST to a Node server on 127.0.0.1 (test/setup/webhook-receiver.ts).
            const { startWebhookReceiver } = await import("./test/setup/webhook-receiver.ts");
            return onTestDatabase(
              inject,
              "./workers/api/wrangler.jsonc",
              { ...(await stripeTestBindings()), TEST_UPSTREAM_URL: upstreamUrl, TEST_RECEIVER_URL: await startWebhookReceiver() },
              {
                // The proxy's producer binding, so a test can hand the proxy this worker's queue.
                queueProducers: { LOG_QUEUE: { queueName: "log-records" } },
                // Deliver at once (wrangler.jsonc waits up to 2 s to fill a batch).
                queueConsumers: { "log-records": { maxBatchSize: 100, maxBatchTimeout: 0, maxRetries: 100, deadLetterQueue: "log-records-dlq" } },
                // What reaches the dead-letter queue, read through DLQ_SINK (test/proxy/log-sink.mjs).
                serviceBindings: { DLQ_SINK: "dlq-sink" },
                workers: [logSinkWorker("dlq-sink", "log-records-dlq")],
              },
            );
          }),
        ],
        test: {
          name: "workers",
          include: ["test/api/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // Capture proxy in workerd (workers/proxy); its test-only bindings live in this block.
      // The upstream is a Node HTTP server replaying test/fixtures/openai/ (test/proxy/stand-ins.ts);
      // the real Miniflare `log-records` queue delivers to an auxiliary worker that records each
      // message (test/proxy/log-sink.mjs, read through the LOG_SINK binding).
      {
        plugins: [
          cloudflareTest(async () => {
            const { apiStandIn, startStandIns } = await import("./test/proxy/stand-ins.ts");
            const { upstreamUrl, closedUrl } = await startStandIns();
            return {
              wrangler: { configPath: "./workers/proxy/wrangler.jsonc" },
              miniflare: {
                bindings: {
                  UPSTREAM_BASE_URL: upstreamUrl,
                  UPSTREAM_ALLOWLIST: `${upstreamUrl}, https://llm.allowed.example`,
                  TEST_UPSTREAM_URL: upstreamUrl,
                  TEST_CLOSED_URL: closedUrl,
                },
                serviceBindings: { API: apiStandIn, LOG_SINK: "log-sink" },
                workers: [logSinkWorker("log-sink", "log-records")],
              },
            };
          }),
        ],
        test: { name: "proxy", include: ["test/proxy/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      // The local Stripe stand-in (packages/stripe-stand-in) in Node, driven with the stripe library.
      {
        test: { name: "stripe-stand-in", include: ["packages/stripe-stand-in/test/**/*.test.ts"], environment: "node", testTimeout: 30_000 },
      },
      // Node client library (sdk/js) in Node, against real provider SDKs and the real API.
      {
        test: { name: "sdk-js", include: ["sdk/js/test/**/*.test.ts"], environment: "node", testTimeout: 60_000, hookTimeout: 180_000 },
      },
      // The dashboard in Debian's Chromium (playwright-core) against its own stack on fixed
      // ports 8747 (API) and 8748 (dashboard): dashboard/test/browser/.
      {
        test: {
          name: "dashboard-browser",
          include: ["dashboard/test/browser/**/*.test.ts"],
          environment: "node",
          // Each file starts a whole stack (API and dashboard under wrangler dev, Chromium): one file
          // at a time, in a group of its own (vitest runs groups one after another, never beside the
          // workerd suites), so two cores never carry two stacks at once (sign-up took over 90 s
          // when they overlapped).
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 90_000,
          hookTimeout: 300_000,
        },
      },
      // `npm run deploy` against a recording wrangler stand-in, real PostgreSQL, the real API (test/deploy/).
      {
        test: { name: "deploy", include: ["test/deploy/**/*.test.ts"], environment: "node", testTimeout: 300_000, hookTimeout: 120_000 },
      },
      // End to end: `npm run dev` itself as a child process (own ports 8871/8872/25471, fresh
      // data directory), driven with curl, the openai SDK and the READMEs' scripts (test/e2e/).
      {
        test: { name: "e2e", include: ["test/e2e/**/*.test.ts"], environment: "node", testTimeout: 180_000, hookTimeout: 300_000 },
      },
      // Dashboard server (dashboard/server, Hono on Pages Functions) in workerd beside the real
      // API worker (SELF, from wrangler.toml), which stands in for its service binding.
      {
        plugins: [
          cloudflareTest(async ({ inject }) => {
            const { stripeTestBindings } = await import("./test/setup/stripe.ts");
            const { DASHBOARD_TEST_BINDINGS } = await import("./dashboard/test/server/constants.ts");
            return onTestDatabase(inject, "./workers/api/wrangler.jsonc", { ...(await stripeTestBindings()), ...DASHBOARD_TEST_BINDINGS });
          }),
        ],
        test: { name: "dashboard-server", include: ["dashboard/test/server/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 60_000 },
      },
      {
        plugins: [
          cloudflareTest(async ({ inject }) => {
            const { startWebhookReceiver } = await import("./test/setup/webhook-receiver.ts");
            // Guard-model tests ask an OpenAI-compatible endpoint on 127.0.0.1 (test/setup/judge-server.ts).
            const { startJudgeServer } = await import("./test/setup/judge-server.ts");
            return onTestDatabase(
              inject,
              "./workers/scorer/wrangler.jsonc",
              {
                // Alert deliveries as under `npm run dev` (loopback allowed), with a retry
                // budget shortened to 3 attempts 1 s and 4 s apart and a 1 s timeout.
                WEBHOOK_ALLOW_LOOPBACK: "true",
                WEBHOOK_MAX_ATTEMPTS: "3",
                WEBHOOK_RETRY_BASE_SECONDS: "1",
                WEBHOOK_TIMEOUT_MS: "1000",
                DASHBOARD_URL: "http://dashboard.test",
                TEST_RECEIVER_URL: await startWebhookReceiver(),
                TEST_JUDGE_URL: await startJudgeServer(),
              },
              // Lets tests put a job on the dead-letter queue, which the worker consumes for real.
              { queueProducers: { TEST_DLQ: { queueName: "scoring-jobs-dlq" } } },
            );
          }),
        ],
        test: {
          name: "scorer",
          include: ["test/scorer/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
