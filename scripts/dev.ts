/**
 * `npm run dev`: the whole product on this machine, with no variables to set.
 * 1. PostgreSQL: embedded (data in .data/pg, or SIGHTLINE_DATA_DIR) unless DATABASE_URL is set;
 *    migrations applied.
 * 2. First start: a demo project and API key, printed once; the first account that signs up
 *    in the local dashboard adopts the demo project (src/accounts/demo.ts).
 * 3. Billing: with no STRIPE_SECRET_KEY (environment or .dev.vars), the local Stripe stand-in
 *    runs in this process with its test values (packages/stripe-stand-in/src/dev.ts) and forwards its
 *    signed events to the API's webhook, keeping its objects beside the database
 *    (stripe-stand-in.json) across restarts; otherwise the configured Stripe values are used.
 * 4. `wrangler dev` for the API + scorer workers (API on :8787), the proxy (:8080), and a scorer
 *    session on :8789 whose scheduled handler (the sweep cron runs in production) is called every
 *    minute (SIGHTLINE_SWEEP_EVERY_MS). UPSTREAM_BASE_URL from the environment goes to the proxy.
 *    Alert webhooks may target loopback URLs (WEBHOOK_ALLOW_LOOPBACK=true), and their events link
 *    to this dashboard.
 * 5. The dashboard (dashboard/, :8788): scripts/lib/dashboard.ts.
 * One summary block lists every URL, the demo key and what is a local stand-in.
 * Secrets (INTERNAL_API_SECRET, STRIPE_SECRET_KEY, PAYMENT_WEBHOOK_SECRET) reach the workers
 * through the environment, never a command line.
 * Ctrl-C stops the workers, the stand-in, then the database.
 * Ports: SIGHTLINE_API_PORT, SIGHTLINE_PROXY_PORT, SIGHTLINE_PG_PORT, SIGHTLINE_SWEEP_PORT,
 * SIGHTLINE_STRIPE_PORT, SIGHTLINE_DASHBOARD_PORT; wrangler's local state (queues, caches, R2
 * with the bodies, the generated dev config) goes to SIGHTLINE_PERSIST_DIR when set (default
 * `wrangler/` beside the database's folder, .data/wrangler: bodies persist with their rows). A
 * second stack beside yours (e.g. the e2e tests) also needs its own WRANGLER_REGISTRY_PATH, so
 * that its proxy's service binding reaches its own API worker.
 */
import { dirname, join } from "node:path";
import { exitOnBadConfig } from "./lib/check-config";
import { BILLING_VARS, ensureInternalSecret, readDevVars } from "./lib/dev-vars";
import { releaseSignalHandling } from "./lib/postgres";
import { DEV_DATA_DIR, seedDemoProject, startDatabase } from "./lib/stack";
import { bothHosts, STAND_IN_PORT, startDevStripe, type DevStripe } from "@sightline/stripe-stand-in/dev";
import { startDashboard } from "./lib/dashboard";
import { startWorkers, type RunningWorkers } from "./lib/workers";

const port = (name: string, fallback: number) => Number(process.env[name] || fallback);
const API_PORT = port("SIGHTLINE_API_PORT", 8787);
const PROXY_PORT = port("SIGHTLINE_PROXY_PORT", 8080);
const SWEEP_PORT = port("SIGHTLINE_SWEEP_PORT", 8789);
const STRIPE_PORT = port("SIGHTLINE_STRIPE_PORT", STAND_IN_PORT);
const DASHBOARD_PORT = port("SIGHTLINE_DASHBOARD_PORT", 8788);
/** The sweep's period locally; production's cron is in workers/scorer/wrangler.jsonc. */
const SWEEP_EVERY_MS = port("SIGHTLINE_SWEEP_EVERY_MS", 60_000);
/** .dev.vars keys the API worker reads (the rest are this launcher's: DATABASE_URL). */
const API_VARS = ["TIER_LIMITS", "DOCS_ENABLED", "LOG_MAX_BYTES", ...BILLING_VARS];

// Environment first, then .dev.vars (wrangler no longer reads .dev.vars for the API: its dev
// config is generated, see scripts/lib/workers.ts).
const devVars = readDevVars();
const configured = (name: string) => process.env[name] || devVars[name] || "";
const apiVars = Object.fromEntries(API_VARS.flatMap((k) => (configured(k) ? [[k, configured(k)]] : [])));

// A bad variable (wrangler.jsonc, .dev.vars or the environment) stops before anything starts.
exitOnBadConfig({ API: apiVars });

const db = await startDatabase();
console.log(`▶ PostgreSQL ready (${db.embedded ? `embedded, data in ${DEV_DATA_DIR}` : "DATABASE_URL"})`);
const secret = ensureInternalSecret();
const demo = await seedDemoProject(db.url);

let stopping = false;
let workers: RunningWorkers | undefined; // set once every worker answers
let stripe: DevStripe | undefined;
/** Stops of further parts (the dashboard), run before the workers stop. */
const extraStops: (() => Promise<void>)[] = [];
const stopAll = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await Promise.all(extraStops.map((stop) => stop().catch(() => {})));
  await workers?.stop();
  await stripe?.close().catch(() => {});
  await db.stop().catch(() => {});
  console.log("▶ stopped");
  process.exit(code);
};
releaseSignalHandling(); // Ctrl-C is handled here: workers first, then the database
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

if (!configured("STRIPE_SECRET_KEY")) {
  // Return pages on the dashboard's origin and the API's own (for trying the flow with curl).
  const origins = configured("BILLING_RETURN_ORIGINS")
    ? configured("BILLING_RETURN_ORIGINS").split(",")
    : [...bothHosts(DASHBOARD_PORT), ...bothHosts(API_PORT)];
  stripe = await startDevStripe({
    port: STRIPE_PORT,
    forwardTo: `http://127.0.0.1:${API_PORT}/webhook/payment`,
    returnOrigins: origins,
    env: { ...devVars, ...process.env },
    log: (line) => console.log(line),
    // Beside the database, so customers the database refers to survive a restart.
    stateFile: join(dirname(DEV_DATA_DIR), "stripe-stand-in.json"),
  }).catch(async (err) => {
    console.error(`▶ could not start the Stripe stand-in on :${STRIPE_PORT} (${err}); set SIGHTLINE_STRIPE_PORT or STRIPE_SECRET_KEY`);
    await db.stop().catch(() => {});
    process.exit(1);
  });
  Object.assign(apiVars, stripe.vars);
}

/** Alert webhooks may target this machine locally (docs/webhooks.md); deployed, loopback is refused. */
const ALERT_DEV_VARS = { WEBHOOK_ALLOW_LOOPBACK: "true" };

/** wrangler's local state of the workers and the dashboard (R2 holds the bodies: kept beside the database). */
const PERSIST_DIR = process.env.SIGHTLINE_PERSIST_DIR || join(dirname(DEV_DATA_DIR), "wrangler");

workers = await startWorkers({
  databaseUrl: db.url,
  internalSecret: secret,
  apiPort: API_PORT,
  vars: { ...apiVars, ...ALERT_DEV_VARS },
  scorerVars: { ...ALERT_DEV_VARS, DASHBOARD_URL: `http://localhost:${DASHBOARD_PORT}` },
  proxyPort: PROXY_PORT,
  sweep: { port: SWEEP_PORT, everyMs: SWEEP_EVERY_MS, onResult: (line) => (/^sweep: 200\b/.test(line) ? undefined : console.error(`▶ ${line}`)) },
  persistTo: PERSIST_DIR,
  proxyVars: process.env.UPSTREAM_BASE_URL ? { UPSTREAM_BASE_URL: process.env.UPSTREAM_BASE_URL } : {},
  onExit: (what, code) => {
    if (stopping) return;
    console.error(`▶ ${what} worker exited (${code}); stopping the stack`);
    void stopAll(1);
  },
}).catch(async (err) => {
  console.error(`▶ could not start the workers: ${err}`);
  await stripe?.close().catch(() => {});
  await db.stop().catch(() => {});
  process.exit(1);
});

// The dashboard (dashboard/README.md): Vite build + `wrangler pages dev`, its API binding
// reaching the API session above through the dev registry.
const dashboard = await startDashboard({
  port: DASHBOARD_PORT,
  databaseUrl: db.url,
  internalSecret: secret,
  apiUrl: `http://localhost:${API_PORT}`,
  proxyUrl: `http://localhost:${PROXY_PORT}`,
  persistTo: PERSIST_DIR,
  onExit: (code) => {
    if (stopping) return;
    console.error(`▶ dashboard exited (${code}); stopping the stack`);
    void stopAll(1);
  },
}).catch(async (err) => {
  console.error(`▶ could not start the dashboard: ${err}`);
  await stopAll(1);
  throw err;
});
extraStops.push(dashboard.stop);
const dashboardUrl: string | null = dashboard.url;

const row = (name: string, value: string) => `  ${name.padEnd(11)}${value}`;
const standIns = [
  ...(stripe ? ["Stripe (no STRIPE_SECRET_KEY configured)"] : []),
  ...(db.embedded ? ["PostgreSQL is embedded (no DATABASE_URL)"] : []),
  "Hyperdrive, Queues and cron are wrangler's local simulations",
];
console.log(
  [
    "",
    `▶ Sightline is up: API http://localhost:${API_PORT}`,
    row("API", `http://localhost:${API_PORT}  (docs /docs, OpenAPI /openapi.json)`),
    row("proxy", `http://localhost:${PROXY_PORT}/v1  (OpenAI-compatible base URL)`),
    row("dashboard", dashboardUrl ?? `not in this checkout (will be http://localhost:${DASHBOARD_PORT})`),
    row("scorer", `queue consumer beside the API; sweep every ${SWEEP_EVERY_MS / 1000} s via ${workers.sweepUrl}`),
    row("PostgreSQL", db.embedded ? `${db.url.replace(/\/\/[^@]*@/, "//")}  (data in ${DEV_DATA_DIR})` : "DATABASE_URL"),
    row("Stripe", stripe ? `stand-in ${stripe.url}  (test values; pay a checkout by opening its URL)` : "your STRIPE_SECRET_KEY"),
    row("stand-ins", standIns.join("; ")),
  ].join("\n"),
);
if (demo) {
  console.log("\n  A demo project was created. Its API key is shown this once; store it now:\n");
  console.log(`    SERVICE_API_KEY=${demo.key}\n`);
  console.log(`  project id ${demo.projectId}; more keys: npm run keys -- create ${demo.projectId}`);
  if (dashboardUrl) console.log(`  The first account you create at ${dashboardUrl} owns the Demo project and sees its calls.`);
}
console.log("  Ctrl-C stops everything.\n");
