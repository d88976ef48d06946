/**
 * `npm run deploy`: provisions and deploys a Sightline instance to the Cloudflare account
 * wrangler is logged into, idempotently (a second run creates nothing and keeps every secret).
 *  1. `wrangler whoami`: logged in, one account (or CLOUDFLARE_ACCOUNT_ID).
 *  2. Resources the worker configs name: queues and dead-letter queues, R2 buckets, and the
 *     Hyperdrive config from DATABASE_URL (./lib/deploy/resources.ts).
 *  3. Migrations applied to DATABASE_URL (Neon: its direct, non-pooled URL).
 *  4. Deploy configs with the account's ids and the deployment's variables, in .wrangler/deploy
 *     (SIGHTLINE_DEPLOYMENT=managed|self-hosted, ./lib/deploy/deployment.ts).
 *  5. Secrets: missing ones from the environment or a hidden prompt (./lib/deploy/secrets.ts).
 *  6. Workers in dependency order: API, scorer, proxy (it binds to the API); then the
 *     dashboard (Pages) when dashboard/ exists.
 *  7. Smoke check (./lib/deploy/smoke.ts) and the URLs.
 * Options: --dry-run (build and check every deployable, print the plan; no account needed),
 * --plan free|paid (size limit of the checks, default free), --update-secrets (re-set secrets
 * given in the environment), --skip-smoke. SIGHTLINE_API_URL: the API's URL for the smoke
 * check and the dashboard when it is not the workers.dev one (a custom domain).
 * Secret values never appear in its output or on a command line it runs; the one exception
 * is wrangler's own interface for `hyperdrive create`, which takes the connection string as an
 * argument (first deploy only).
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { checkBundle, SIZE_LIMITS, STARTUP_LIMIT_MS } from "./lib/deploy/bundles";
import { migrationTags, writeDeployConfigs } from "./lib/deploy/configs";
import { buildDashboard, deployDashboard, hasDashboard, pagesProject } from "./lib/deploy/dashboard";
import { deploymentKind, deploymentVars, sellsBilling } from "./lib/deploy/deployment";
import { ensureResources, planResources } from "./lib/deploy/resources";
import { API_SECRET_SPECS, applySecrets, knownInternalSecret } from "./lib/deploy/secrets";
import { smokeCheck } from "./lib/deploy/smoke";
import { parseDeployedUrls, parseJson, redact, registerSecret, wrangler, wranglerOk } from "./lib/deploy/wrangler-cli";
import { exitOnBadConfig } from "./lib/check-config";
import { applyMigrations } from "./lib/postgres";
import { generatedDir, readWorkerConfig, WORKERS } from "./lib/wrangler-config";

const { values: args } = parseArgs({
  options: {
    "dry-run": { type: "boolean", default: false },
    plan: { type: "string", default: process.env.SIGHTLINE_WORKERS_PLAN || "free" },
    "update-secrets": { type: "boolean", default: false },
    "skip-smoke": { type: "boolean", default: false },
  },
});
const log = (line: string) => console.log(redact(line));
const step = (line: string) => log(`\n▶ ${line}`);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

async function dryRun(): Promise<boolean> {
  const plan = args.plan as keyof typeof SIZE_LIMITS;
  if (!(plan in SIZE_LIMITS)) throw new Error(`--plan must be free or paid, not ${args.plan}`);
  const kind = deploymentKind();
  const resources = planResources(WORKERS.map((w) => readWorkerConfig(w.config)));
  step(`plan (dry run: nothing is created, no account is needed; deployment: ${kind})`);
  log(`  queues:      ${resources.queues.join(", ") || "none"}`);
  log(`  R2 buckets:  ${resources.buckets.join(", ") || "none"}`);
  log(`  Hyperdrive:  ${resources.hyperdrive ?? "none"} (from DATABASE_URL)`);
  log(`  migrations:  ${migrationTags().join(", ")}`);
  const secrets = API_SECRET_SPECS.filter((s) => !s.billing || sellsBilling(kind)).map((s) => s.name);
  log(`  secrets:     sightline-api: ${secrets.join(", ")}`);
  log(
    `  workers:     ${WORKERS.map((w) => readWorkerConfig(w.config).name).join(" -> ")}${hasDashboard() ? ` -> Pages ${pagesProject()}` : " (no dashboard/ in this checkout)"}`,
  );
  const configs = writeDeployConfigs({ dir: generatedDir("deploy-dry-run"), hyperdriveId: null, apiVars: deploymentVars(kind) });
  step(`bundles (limits: ${kib(SIZE_LIMITS[plan])} gzipped on the ${plan} plan, startup ${STARTUP_LIMIT_MS} ms)`);
  let ok = true;
  for (const w of WORKERS) {
    const check = await checkBundle(w.id, configs[w.id], join(generatedDir("deploy-dry-run"), "dist", w.id), plan);
    ok &&= check.ok;
    log(
      `  ${check.ok ? "ok  " : "FAIL"} ${w.id.padEnd(7)} ${kib(check.gzipBytes).padStart(9)} gzipped (${((100 * check.gzipBytes) / check.limitBytes).toFixed(0)}% of the limit), startup ${check.startupMs.toFixed(1)} ms`,
    );
  }
  if (hasDashboard()) {
    const dist = buildDashboard(process.env.SIGHTLINE_API_URL || "https://sightline-api.example.workers.dev");
    log(`  ok   dashboard built to ${dist}`);
  }
  return ok;
}

async function deploy(): Promise<void> {
  const kind = deploymentKind();
  const apiVars = deploymentVars(kind);
  step("account");
  const who = await wrangler(["whoami", "--json"]);
  if (who.code !== 0) throw new Error("wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN) and try again");
  const user = parseJson<{ loggedIn: boolean; email?: string; accounts?: { id: string; name: string }[] }>(who.stdout);
  if (!user.loggedIn) throw new Error("wrangler is not logged in: run `npx wrangler login`");
  const accounts = user.accounts ?? [];
  if (accounts.length > 1 && !process.env.CLOUDFLARE_ACCOUNT_ID)
    throw new Error(`this login reaches ${accounts.length} accounts (${accounts.map((a) => a.name).join(", ")}): set CLOUDFLARE_ACCOUNT_ID`);
  const account = accounts.find((a) => a.id === process.env.CLOUDFLARE_ACCOUNT_ID) ?? accounts[0];
  log(`  ${user.email ?? "API token"}, account ${account?.name ?? process.env.CLOUDFLARE_ACCOUNT_ID}; deployment: ${kind}`);

  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl)
    throw new Error("set DATABASE_URL to the PostgreSQL of this deployment (Neon: the direct, non-pooled URL); it is used for Hyperdrive and the migrations");
  registerSecret(databaseUrl);
  step("resources");
  const resources = await ensureResources(planResources(WORKERS.map((w) => readWorkerConfig(w.config))), databaseUrl, log);
  log(`  ${resources.created.length} created, ${resources.existing.length} already there (${resources.existing.join(", ") || "-"})`);

  step("migrations");
  await applyMigrations(databaseUrl);
  log(`  up to date: ${migrationTags().join(", ")}`);

  const configs = writeDeployConfigs({ hyperdriveId: resources.hyperdriveId, apiVars });
  step("workers");
  const urls: Record<string, string[]> = {};
  for (const w of WORKERS) {
    const specs = w.id === "api" ? API_SECRET_SPECS.filter((s) => !s.billing || sellsBilling(kind)) : [];
    const secrets = specs.length ? await applySecrets(configs[w.id], specs, { update: args["update-secrets"]!, log }) : undefined;
    try {
      if (secrets?.put.length) log(`  ${w.id}: secrets set: ${secrets.put.join(", ")}`);
      const extra = secrets?.secretsFile ? ["--secrets-file", secrets.secretsFile] : [];
      const out = await wranglerOk(["deploy", "-c", configs[w.id], ...extra]);
      urls[w.id] = parseDeployedUrls(out.stdout);
      log(
        `  ${w.id}: deployed${secrets?.withDeploy.length ? ` with secrets ${secrets.withDeploy.join(", ")}` : ""}${urls[w.id]!.length ? ` (${urls[w.id]!.join(", ")})` : ""}`,
      );
    } finally {
      secrets?.cleanup();
    }
  }
  const apiUrl = process.env.SIGHTLINE_API_URL || urls.api?.find((u) => u.startsWith("https://"));
  let dashboardUrl: string | undefined;
  if (hasDashboard()) {
    step("dashboard");
    dashboardUrl = await deployDashboard(buildDashboard(apiUrl ?? ""), log);
    log(`  Pages ${pagesProject()}: ${dashboardUrl ?? "deployed"}`);
  }

  if (!args["skip-smoke"]) {
    step("smoke check");
    if (!apiUrl) throw new Error("the API's URL is unknown (no workers.dev route printed): set SIGHTLINE_API_URL");
    const internalSecret = knownInternalSecret();
    if (internalSecret) registerSecret(internalSecret);
    await smokeCheck({ apiUrl, ...(internalSecret ? { internalSecret } : {}), log });
  }

  step("Sightline is deployed");
  log(`  API        ${apiUrl ?? "(no public route)"}${kind === "self-hosted" ? "  (docs /docs)" : ""}`);
  log(`  proxy      ${urls.proxy?.[0] ? `${urls.proxy[0]}/v1` : "(no public route)"}`);
  log(`  scorer     queue consumer${urls.scorer?.length ? `; ${urls.scorer.join(", ")}` : ""}`);
  if (hasDashboard()) log(`  dashboard  ${dashboardUrl ?? "(see the Pages project)"}`);
  log(`  created this run: ${resources.created.join(", ") || "nothing"}`);
}

try {
  // A bad variable in any worker's wrangler.jsonc (or set for the API here) stops before anything is built.
  exitOnBadConfig({ API: deploymentVars(deploymentKind()) });
  if (args["dry-run"]) {
    const ok = await dryRun();
    step(ok ? "dry run passed" : "dry run FAILED: a bundle is over a limit");
    process.exit(ok ? 0 : 1);
  }
  await deploy();
} catch (err) {
  console.error(redact(`\n✘ ${err instanceof Error ? err.message : String(err)}`));
  process.exit(1);
}
