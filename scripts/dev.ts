/**
 * `npm run dev`: the whole stack on this machine.
 * 1. PostgreSQL: embedded (data in .data/pg, or SIGHTLINE_DATA_DIR) unless DATABASE_URL is set;
 *    migrations applied.
 * 2. First start: a demo project and API key, printed once.
 * 3. `wrangler dev` for the API + scorer workers (API on :8787) and the proxy (:8080);
 *    UPSTREAM_BASE_URL from the environment is passed to the proxy.
 *    Billing variables from the environment (STRIPE_*, PAYMENT_WEBHOOK_SECRET,
 *    BILLING_RETURN_ORIGINS; README "Billing") are passed to the API worker.
 * Ctrl-C stops the workers, then the database.
 * Ports: SIGHTLINE_API_PORT, SIGHTLINE_PROXY_PORT, SIGHTLINE_PG_PORT; wrangler's local state
 * (queues, caches) goes to SIGHTLINE_PERSIST_DIR when set (default .wrangler/state). A second
 * stack beside yours (e.g. the e2e tests) also needs its own WRANGLER_REGISTRY_PATH, so that
 * its proxy's service binding reaches its own API worker.
 */
import { ensureInternalSecret } from "./lib/dev-vars";
import { releaseSignalHandling } from "./lib/postgres";
import { DEV_DATA_DIR, seedDemoProject, startDatabase } from "./lib/stack";
import { startDashboard, type RunningDashboard } from "./lib/dashboard";
import { startWorkers, type RunningWorkers } from "./lib/workers";

const API_PORT = Number(process.env.SIGHTLINE_API_PORT ?? 8787);
const PROXY_PORT = Number(process.env.SIGHTLINE_PROXY_PORT ?? 8080);
const BILLING_VARS = ["STRIPE_API_BASE", "STRIPE_SECRET_KEY", "PAYMENT_WEBHOOK_SECRET", "STRIPE_PRICE_PRO", "STRIPE_PRICE_TEAM", "STRIPE_PRICE_ENTERPRISE", "BILLING_RETURN_ORIGINS"];
const billingVars = Object.fromEntries(BILLING_VARS.flatMap((k) => (process.env[k] ? [[k, process.env[k]!]] : [])));

const db = await startDatabase();
console.log(`▶ PostgreSQL ready (${db.embedded ? `embedded, data in ${DEV_DATA_DIR}` : "DATABASE_URL"})`);
const secret = ensureInternalSecret();
const demo = await seedDemoProject(db.url);

let stopping = false;
let workers: RunningWorkers | undefined; // set once every worker answers
let dashboard: RunningDashboard | undefined;
const stopAll = async (code: number) => {
  if (stopping) return;
  stopping = true;
  await dashboard?.stop();
  await workers?.stop();
  await db.stop().catch(() => {});
  console.log("▶ stopped");
  process.exit(code);
};
releaseSignalHandling(); // Ctrl-C is handled here: workers first, then the database
process.on("SIGINT", () => void stopAll(0));
process.on("SIGTERM", () => void stopAll(0));

workers = await startWorkers({
  databaseUrl: db.url,
  internalSecret: secret,
  apiPort: API_PORT,
  vars: billingVars,
  proxyPort: PROXY_PORT,
  persistTo: process.env.SIGHTLINE_PERSIST_DIR || undefined,
  proxyVars: process.env.UPSTREAM_BASE_URL ? { UPSTREAM_BASE_URL: process.env.UPSTREAM_BASE_URL } : {},
  onExit: (what, code) => {
    if (stopping) return;
    console.error(`▶ ${what} worker exited (${code}); stopping the stack`);
    void stopAll(1);
  },
}).catch(async (err) => {
  console.error(`▶ could not start the workers: ${err}`);
  await db.stop().catch(() => {});
  process.exit(1);
});

// The dashboard (dashboard/README.md) on SIGHTLINE_DASHBOARD_PORT (8788), beside the workers.
dashboard = await startDashboard({
  databaseUrl: db.url,
  internalSecret: secret,
  apiUrl: `http://localhost:${API_PORT}`,
  proxyUrl: `http://localhost:${PROXY_PORT}`,
  persistTo: process.env.SIGHTLINE_PERSIST_DIR || undefined,
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
console.log(`▶ Dashboard: ${dashboard.url}`);

console.log(`\n▶ Sightline is up: API http://localhost:${API_PORT} (docs /docs), proxy http://localhost:${PROXY_PORT}/v1`);
if (demo) {
  console.log("\n  A demo project was created. Its API key is shown this once; store it now:\n");
  console.log(`    SERVICE_API_KEY=${demo.key}\n`);
  console.log(`  project id ${demo.projectId}; more keys: npm run keys -- create ${demo.projectId}`);
}
console.log("  Ctrl-C stops everything.\n");
