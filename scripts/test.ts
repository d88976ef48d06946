/**
 * `npm test`: every test suite of the repository, in one command.
 * 1. Vitest, all projects: `unit` (scorers, OpenAPI), `workers` (API in workerd),
 *    `scorer` (queue consumer + sweep in workerd), `proxy` (capture proxy in workerd),
 *    `sdk-js` (Node library against real provider SDKs and the real API), `e2e` (`npm run dev`
 *    itself, driven by the READMEs' curl steps and scripts and the openai SDK; test/e2e/),
 *    `deploy` (`npm run deploy` against a recording wrangler stand-in; test/deploy/),
 *    `stripe-stand-in` (the local Stripe stand-in, packages/stripe-stand-in/test/).
 * 2. The Python library's unittest suite, with its integration test pointed at a real
 *    local stack (embedded PostgreSQL + API and scorer workers under wrangler dev).
 * 3. The model training check, `npm run train -- --check` (a fresh fit reproduces the committed
 *    model files byte for byte), started at once beside the rest at the lowest CPU priority and
 *    collected at the end: it is about two minutes of single-threaded scikit-learn, and vitest
 *    runs its files one at a time (its default `maxWorkers` is the cores less one, 1 on two
 *    cores), so it takes the idle core instead of adding its time to the run.
 * Ends with one line `tests: N passed, N failed` and exits non-zero when anything failed.
 * Arguments are passed to vitest (e.g. `npm test -- --project workers`); steps 2 and 3 then do not run.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "./lib/postgres";
import { startWorkers } from "./lib/workers";

const totals = { passed: 0, failed: 0 };
const args = process.argv.slice(2);

mkdirSync(join(ROOT, ".data"), { recursive: true });

// 3. The training check, started first (nice 19: vitest's and PostgreSQL's work comes first).
// Its output goes to a file: this process blocks in spawnSync below and could not drain a pipe.
const trainLog = join(ROOT, ".data/train-check.log");
const trainCheck =
  args.length === 0
    ? (() => {
        const out = openSync(trainLog, "w");
        const child = spawn("nice", ["-n", "19", process.execPath, "--import", "tsx", "scripts/train.ts", "--check"], {
          cwd: ROOT,
          stdio: ["ignore", out, out],
        });
        closeSync(out);
        return new Promise<number | null>((resolve) => {
          child.on("error", () => resolve(null));
          child.on("exit", (code) => resolve(code));
        });
      })()
    : undefined;

// 1. Vitest
const report = join(ROOT, ".data/vitest-report.json");
console.log("\n▶ vitest");
const vitest = spawnSync("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...args], {
  cwd: ROOT,
  stdio: "inherit",
});
if (existsSync(report)) {
  const r = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numFailedTestSuites: number };
  totals.passed += r.numPassedTests;
  totals.failed += r.numFailedTests + (r.numFailedTests === 0 && vitest.status !== 0 ? Math.max(1, r.numFailedTestSuites) : 0);
} else if (vitest.status !== 0) totals.failed += 1;

// 2. Python library, integration test against a real stack
if (args.length === 0) {
  console.log("\n▶ python sdk (unittest) against a local stack");
  const pg = await startEmbeddedPostgres({ dir: ".data/pytest-pg", port: 55439, ephemeral: true });
  const url = pg.urlFor("sightline_pytest");
  let workers: Awaited<ReturnType<typeof startWorkers>> | undefined;
  try {
    await ensureDatabase(pg.serverUrl, "sightline_pytest", true);
    await applyMigrations(url);
    const secret = randomBytes(32).toString("hex");
    workers = await startWorkers({ databaseUrl: url, internalSecret: secret, apiPort: 8799, quiet: true, persistTo: ".wrangler/pytest" });
    const admin = { "X-Internal-Secret": secret, "Content-Type": "application/json" };
    const project = (await (await fetch(`${workers.apiUrl}/internal/projects`, { method: "POST", headers: admin, body: '{"name":"python-it"}' })).json()) as {
      id: string;
    };
    const { key } = (await (await fetch(`${workers.apiUrl}/internal/projects/${project.id}/keys`, { method: "POST", headers: admin, body: "{}" })).json()) as {
      key: string;
    };
    const py = spawnSync("python3", ["-m", "unittest", "discover", "-s", "sdk/python/tests", "-t", "sdk/python"], {
      cwd: ROOT,
      encoding: "utf8",
      env: { ...process.env, SIGHTLINE_IT_BASE_URL: workers.apiUrl, SIGHTLINE_IT_API_KEY: key },
    });
    process.stdout.write(py.stdout);
    process.stderr.write(py.stderr);
    const ran = Number(/Ran (\d+) tests?/.exec(py.stderr)?.[1] ?? 0);
    const bad = [...py.stderr.matchAll(/(failures|errors)=(\d+)/g)].reduce((n, m) => n + Number(m[2]), 0);
    const skipped = Number(/skipped=(\d+)/.exec(py.stderr)?.[1] ?? 0);
    totals.passed += ran - bad - skipped;
    totals.failed += bad + (py.status !== 0 && bad === 0 ? 1 : 0);
  } catch (err) {
    console.error(`python suite could not run: ${err}`);
    totals.failed += 1;
  } finally {
    await workers?.stop();
    await pg.stop();
  }
}

// 3. The training check's result: exit 0, every model "identical", none "DIFFERENT".
if (trainCheck) {
  console.log("\n▶ npm run train -- --check (model files reproduced byte for byte)");
  const code = await trainCheck;
  const out = readFileSync(trainLog, "utf8");
  const ok = code === 0 && /identical/.test(out) && !/DIFFERENT/.test(out);
  console.log(
    ok
      ? out
          .trim()
          .split("\n")
          .filter((l) => /identical|DIFFERENT/.test(l))
          .join("\n")
      : out.slice(-4000),
  );
  if (ok) totals.passed += 1;
  else totals.failed += 1;
}

console.log(`\ntests: ${totals.passed} passed, ${totals.failed} failed`);
process.exit(totals.failed > 0 ? 1 : 0);
