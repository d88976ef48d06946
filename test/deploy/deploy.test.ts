/**
 * `npm run deploy` driven end to end against a recording stand-in of the wrangler commands it
 * runs (test/deploy/fake-wrangler.mjs, which answers in wrangler 4's output formats and refuses
 * what the real service refuses), a real PostgreSQL (the migrations), and the real API worker
 * under wrangler dev as the deployed API the smoke check talks to. Shows the order of the calls,
 * that a second run creates nothing, how secrets travel (stdin or a secrets file, never argv,
 * never our output) and the failure when wrangler is not logged in.
 */
import { spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { ROOT } from "../../scripts/lib/postgres";
import { startWorkers, type RunningWorkers } from "../../scripts/lib/workers";

const FAKE = join(ROOT, "test/deploy/fake-wrangler.mjs");
const REAL = join(ROOT, "node_modules/.bin/wrangler");
const SECRET = randomBytes(32).toString("hex");
const DB_PASSWORD = `pw-${randomBytes(12).toString("hex")}`;
const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");

interface Call {
  argv: string[];
  stdin: boolean;
}
interface Run {
  code: number | null;
  output: string;
  calls: Call[];
}

let work: string;
let databaseUrl: string;
let api: RunningWorkers | undefined;

/** A free TCP port on 127.0.0.1. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Runs `npm run deploy -- …args` with the fake wrangler; returns its exit code, output and the calls it made. */
async function deploy(args: string[] = [], env: Record<string, string | undefined> = {}): Promise<Run> {
  const log = join(work, `calls-${randomBytes(4).toString("hex")}.jsonl`);
  writeFileSync(log, "");
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    SIGHTLINE_WRANGLER: FAKE,
    FAKE_WRANGLER_STATE: join(work, "account.json"),
    FAKE_WRANGLER_LOG: log,
    FAKE_WRANGLER_REAL: REAL,
    SIGHTLINE_DEPLOY_DIR: join(work, "deploy"),
    DATABASE_URL: databaseUrl,
    INTERNAL_API_SECRET: SECRET,
    SIGHTLINE_API_URL: api!.apiUrl,
    FORCE_COLOR: "0",
  };
  for (const k of ["STRIPE_SECRET_KEY", "PAYMENT_WEBHOOK_SECRET", "SIGHTLINE_DEPLOYMENT", "CLOUDFLARE_ACCOUNT_ID", "TIER_LIMITS", "DOCS_ENABLED"])
    delete childEnv[k];
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined) delete childEnv[k];
    else childEnv[k] = v;
  }
  const child = spawn("npm", ["run", "deploy", "--", ...args], { cwd: ROOT, env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d: Buffer) => (output += d));
  child.stderr.on("data", (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((r) => child.on("close", r));
  const calls = readFileSync(log, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Call);
  return { code, output, calls };
}

const account = () => JSON.parse(readFileSync(join(work, "account.json"), "utf8"));
/** Index of the first call whose argv starts with `prefix`. */
const at = (calls: Call[], ...prefix: string[]) => calls.findIndex((c) => prefix.every((p, i) => c.argv[i] === p));
/** Name of the worker a `deploy -c <file>` call deployed (from the generated config's file name). */
const deployed = (calls: Call[]) => calls.filter((c) => c.argv[0] === "deploy").map((c) => c.argv[c.argv.indexOf("-c") + 1]!.split("/").pop());

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "sightline-deploy-test-"));
  // A database of its own, owned by a role with a password of its own (to look for in output).
  const admin = new pg.Client(inject("databaseUrl"));
  await admin.connect();
  const db = `sightline_deploy_${randomBytes(4).toString("hex")}`;
  await admin.query(`CREATE ROLE ${db} LOGIN PASSWORD '${DB_PASSWORD}'`);
  await admin.query(`CREATE DATABASE ${db} OWNER ${db}`);
  await admin.end();
  const url = new URL(inject("databaseUrl"));
  url.username = db;
  url.password = DB_PASSWORD;
  url.pathname = `/${db}`;
  databaseUrl = url.toString();
  // The "deployed" API: the real worker, started once the deploy has migrated its database.
  // Until then smoke checks would fail, so the first deploy runs in the first test.
}, 60_000);

afterAll(async () => {
  await api?.stop();
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe("npm run deploy against a recording wrangler stand-in", () => {
  let first: Run;

  it("Should refuse to deploy when wrangler is not logged in, after calling only whoami", async () => {
    // The API for later tests; the migrations are what the deploy is about to apply, so the
    // worker is started on the database only after a migration run (below) to keep the order true.
    writeFileSync(join(work, "account.json"), JSON.stringify({ loggedIn: false }));
    api = { apiUrl: "http://127.0.0.1:9", stop: async () => {} };
    const run = await deploy();
    expect(run.code).toBe(1);
    expect(run.output).toContain("wrangler is not logged in: run `npx wrangler login`");
    expect(run.calls.map((c) => c.argv.join(" "))).toEqual(["whoami --json"]);
    rmSync(join(work, "account.json"));
  }, 120_000);

  it("Should create the queues, the dead-letter queue and Hyperdrive, migrate, then deploy API, scorer and proxy in that order, and pass the smoke check", async () => {
    // First pass without a reachable API: everything up to the smoke check, which must fail.
    const noApi = await deploy();
    expect(noApi.code, noApi.output).toBe(1);
    expect(noApi.output).toContain("smoke check");
    // The database is migrated now: start the real API on it, as the deployed worker.
    api = await startWorkers({
      databaseUrl,
      internalSecret: SECRET,
      apiPort: await freePort(),
      withScorer: false,
      quiet: true,
      persistTo: join(work, "wrangler"),
    });

    // Forget the account and deploy again from scratch, with the API answering.
    rmSync(join(work, "account.json"));
    first = await deploy();
    expect(first.code, first.output).toBe(0);
    const c = first.calls;
    expect(c[0]!.argv).toEqual(["whoami", "--json"]);
    // Resources: listed, then created, each once.
    const creates = c.filter((x) => x.argv[1] === "create").map((x) => x.argv.slice(0, 3).join(" "));
    expect(creates).toEqual([
      "queues create alert-deliveries",
      "queues create log-records",
      "queues create log-records-dlq",
      "queues create scoring-jobs",
      "queues create scoring-jobs-dlq",
      "hyperdrive create sightline",
    ]);
    expect(c.filter((x) => x.argv.slice(0, 3).join(" ") === "r2 bucket create").map((x) => x.argv[3])).toEqual(["sightline-bodies", "sightline-log-payloads"]);
    // Every create before the first deploy; deploys in dependency order.
    const firstDeploy = at(c, "deploy");
    expect(Math.max(...creates.map((_, i) => c.findIndex((x) => x.argv[1] === "create" && x.argv.slice(0, 3).join(" ") === creates[i])))).toBeLessThan(
      firstDeploy,
    );
    expect(deployed(c)).toEqual(["api.jsonc", "scorer.jsonc", "proxy.jsonc"]);
    // The new API worker gets its required secret with its first deploy (wrangler's rule).
    const apiDeploy = c[firstDeploy]!;
    expect(apiDeploy.argv).toContain("--secrets-file");
    expect(account().workers["sightline-api"].secrets.INTERNAL_API_SECRET).toBe(sha256(SECRET));
    // The generated config carries the real Hyperdrive id, not the placeholder.
    const apiConfig = readFileSync(join(work, "deploy/api.jsonc"), "utf8");
    expect(apiConfig).toContain(account().hyperdrive[0].id);
    expect(apiConfig).not.toContain("localConnectionString");
    // Migrations applied to DATABASE_URL.
    const client = new pg.Client(databaseUrl);
    await client.connect();
    const tables = (await client.query("select tablename from pg_tables where schemaname = 'public'")).rows.map((r) => r.tablename);
    await client.end();
    expect(tables).toEqual(expect.arrayContaining(["projects", "api_keys", "llm_requests", "safety_scores", "webhook_events"]));
    // Smoke check and URLs.
    expect(first.output).toContain("GET /openapi.json: 200");
    expect(first.output).toContain("a call logged with a new key: 202, read back: 200");
    expect(first.output).toContain("the smoke key is revoked: 401");
    expect(first.output).toContain("https://sightline-proxy.example-org.workers.dev/v1");
    expect(first.output).toContain(
      "created this run: queue alert-deliveries, queue log-records, queue log-records-dlq, queue scoring-jobs, queue scoring-jobs-dlq, R2 bucket sightline-bodies, R2 bucket sightline-log-payloads, Hyperdrive sightline",
    );
  }, 300_000);

  it("Should print no secret value: not the internal secret, not the database password", () => {
    expect(first, "the first deploy ran").toBeDefined();
    expect(first.output).not.toContain(SECRET);
    expect(first.output).not.toContain(DB_PASSWORD);
    // No secret on any command line it ran, except wrangler's own `hyperdrive create` argument.
    for (const call of first.calls.filter((x) => !(x.argv[0] === "hyperdrive" && x.argv[1] === "create"))) expect(call.argv.join(" ")).not.toContain(SECRET);
    expect(first.calls.some((x) => x.argv.join(" ").includes(DB_PASSWORD) && x.argv[0] !== "hyperdrive")).toBe(false);
  });

  it("Should change nothing on a second run: no create, no secret set, the same three deploys", async () => {
    const before = account();
    const second = await deploy();
    expect(second.code, second.output).toBe(0);
    expect(second.calls.filter((x) => x.argv.includes("create"))).toEqual([]);
    expect(second.calls.filter((x) => x.argv[0] === "secret" && x.argv[1] === "put")).toEqual([]);
    expect(second.calls.filter((x) => x.argv.includes("--secrets-file"))).toEqual([]);
    expect(deployed(second.calls)).toEqual(["api.jsonc", "scorer.jsonc", "proxy.jsonc"]);
    const after = account();
    expect(after.queues).toEqual(before.queues);
    expect(after.hyperdrive).toEqual(before.hyperdrive);
    expect(after.workers["sightline-api"].secrets).toEqual(before.workers["sightline-api"].secrets);
    expect(second.output).toContain("0 created, 8 already there");
    expect(second.output).toContain("created this run: nothing");
    expect(second.output).not.toContain(SECRET);
  }, 300_000);

  it("Should set a secret missing on an existing worker through stdin (`secret put`), never on the command line", async () => {
    const state = account();
    delete state.workers["sightline-api"].secrets.INTERNAL_API_SECRET;
    writeFileSync(join(work, "account.json"), JSON.stringify(state));
    const run = await deploy();
    expect(run.code, run.output).toBe(0);
    const puts = run.calls.filter((x) => x.argv[0] === "secret" && x.argv[1] === "put");
    expect(puts.map((p) => p.argv[2])).toEqual(["INTERNAL_API_SECRET"]);
    expect(puts[0]!.stdin).toBe(true);
    expect(puts[0]!.argv.join(" ")).not.toContain(SECRET);
    // Before the API's deploy, so the new version runs with it.
    expect(run.calls.indexOf(puts[0]!)).toBeLessThan(at(run.calls, "deploy"));
    expect(account().workers["sightline-api"].secrets.INTERNAL_API_SECRET).toBe(sha256(SECRET));
    expect(run.output).not.toContain(SECRET);
  }, 300_000);

  it("Should deploy the managed variant with /docs off and the spec's limits, and self-hosted with /docs on and an unlimited free tier", async () => {
    const managed = await deploy([], {
      SIGHTLINE_DEPLOYMENT: "managed",
      STRIPE_SECRET_KEY: "sk_test_managed",
      PAYMENT_WEBHOOK_SECRET: "whsec_managed",
      STRIPE_PRICE_PRO: "price_pro",
      BILLING_RETURN_ORIGINS: "https://app.example.com",
    });
    expect(managed.code, managed.output).toBe(0);
    expect(account().workers["sightline-api"].vars).toMatchObject({
      DOCS_ENABLED: "false",
      TIER_LIMITS: "",
      STRIPE_PRICE_PRO: "price_pro",
      BILLING_RETURN_ORIGINS: "https://app.example.com",
    });
    // Billing secrets exist only where billing is sold.
    expect(Object.keys(account().workers["sightline-api"].secrets).sort()).toEqual(["INTERNAL_API_SECRET", "PAYMENT_WEBHOOK_SECRET", "STRIPE_SECRET_KEY"]);
    expect(managed.output).not.toContain("sk_test_managed");
    const selfHosted = await deploy();
    expect(selfHosted.code, selfHosted.output).toBe(0);
    expect(account().workers["sightline-api"].vars).toMatchObject({ DOCS_ENABLED: "true", TIER_LIMITS: '{"free":null}' });
  }, 300_000);
});
