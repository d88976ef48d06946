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
 *    model files byte for byte), at the lowest CPU priority, collected at the end.
 * Two lanes share the two cores. Vitest runs one file at a time (its default `maxWorkers` is the
 * cores less one, 1 on two cores), and the workerd suites share one database, so they stay one at
 * a time in lane A. Lane B is a second vitest process for the suites that share nothing with them
 * (`LANE_B`: their own PostgreSQL cluster and ports), then the Python suite; the training check
 * (about two minutes of single-threaded scikit-learn) takes what CPU is left.
 * Ends with one line `tests: N passed, N failed` and exits non-zero when anything failed.
 * Arguments are passed to vitest (e.g. `npm test -- --project workers`); lane B, step 2 and step 3
 * then do not run.
 */
import { spawn, type StdioOptions } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { applyMigrations, ensureDatabase, ROOT, startEmbeddedPostgres } from "./lib/postgres";
import { startWorkers } from "./lib/workers";

const totals = { passed: 0, failed: 0 };
const args = process.argv.slice(2);

/**
 * Lane B's projects: Node suites with their own PostgreSQL cluster (`LANE_B_PG_PORT`) and ports.
 * Suites that start `wrangler dev` stacks beside the dashboard's, build dashboard/dist or share
 * the workerd suites' database stay in lane A.
 */
const LANE_B = ["unit", "stripe-stand-in", "sdk-js"];
const LANE_B_PG_PORT = "25434";

mkdirSync(join(ROOT, ".data"), { recursive: true });

// 3. The training check, started first (nice 19: the suites' work comes first). Its output goes to a file.
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

/**
 * Runs vitest with `vitestArgs`, its JSON report at `report`, output to `stdio`; adds its counts
 * to `totals` (a failed run without a failed test counts its failed files, at least one).
 * Resolves to vitest's exit code (null when it could not start).
 */
function vitest(vitestArgs: string[], report: string, stdio: StdioOptions, env: Record<string, string> = {}): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn("vitest", ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`, ...vitestArgs], {
      cwd: ROOT,
      stdio,
      env: { ...process.env, ...env },
    });
    child.on("error", () => {
      totals.failed += 1;
      resolve(null);
    });
    child.on("exit", (code) => {
      if (existsSync(report)) {
        const r = JSON.parse(readFileSync(report, "utf8")) as { numPassedTests: number; numFailedTests: number; numFailedTestSuites: number };
        totals.passed += r.numPassedTests;
        totals.failed += r.numFailedTests + (r.numFailedTests === 0 && code !== 0 ? Math.max(1, r.numFailedTestSuites) : 0);
      } else if (code !== 0) totals.failed += 1;
      resolve(code);
    });
  });
}

/** Runs `cmd args` to the end; resolves to its exit code and its output. */
function collect(cmd: string, cmdArgs: string[], env: NodeJS.ProcessEnv): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d));
    child.stderr.on("data", (d: Buffer) => (stderr += d));
    child.on("error", (err) => resolve({ status: null, stdout, stderr: `${stderr}${err}` }));
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * 2. The Python library's unittest suite, its integration test against a real local stack
 * (embedded PostgreSQL on 25439, API and scorer under wrangler dev on 8799); writes its output
 * to the file descriptor `out` and adds its counts to `totals`.
 */
async function pythonSuite(out: number): Promise<void> {
  writeSync(out, "\n▶ python sdk (unittest) against a local stack\n");
  const pg = await startEmbeddedPostgres({ dir: ".data/pytest-pg", port: 25439, ephemeral: true });
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
    const py = await collect("python3", ["-m", "unittest", "discover", "-s", "sdk/python/tests", "-t", "sdk/python"], {
      ...process.env,
      SIGHTLINE_IT_BASE_URL: workers.apiUrl,
      SIGHTLINE_IT_API_KEY: key,
    });
    writeSync(out, py.stdout + py.stderr);
    const ran = Number(/Ran (\d+) tests?/.exec(py.stderr)?.[1] ?? 0);
    const bad = [...py.stderr.matchAll(/(failures|errors)=(\d+)/g)].reduce((n, m) => n + Number(m[2]), 0);
    const skipped = Number(/skipped=(\d+)/.exec(py.stderr)?.[1] ?? 0);
    totals.passed += ran - bad - skipped;
    totals.failed += bad + (py.status !== 0 && bad === 0 ? 1 : 0);
  } catch (err) {
    writeSync(out, `python suite could not run: ${err}\n`);
    totals.failed += 1;
  } finally {
    await workers?.stop();
    await pg.stop();
  }
}

// Lane B (all projects run): its vitest projects, then the Python suite, output to a file.
const laneB =
  args.length === 0
    ? (async () => {
        const log = join(ROOT, ".data/test-lane-b.log");
        const out = openSync(log, "w");
        try {
          await vitest(
            LANE_B.map((p) => `--project=${p}`),
            join(ROOT, ".data/vitest-report-b.json"),
            ["ignore", out, out],
            { SIGHTLINE_TEST_PG_PORT: LANE_B_PG_PORT },
          );
          await pythonSuite(out);
        } finally {
          closeSync(out);
        }
        return log;
      })()
    : undefined;

// 1. Lane A: every other vitest project (or the projects `args` names), printed as it runs.
console.log("\n▶ vitest");
await vitest(laneB ? LANE_B.map((p) => `--project=!${p}`) : args, join(ROOT, ".data/vitest-report.json"), "inherit");
if (laneB) {
  const log = await laneB;
  console.log(`\n▶ lane B: vitest ${LANE_B.join(", ")}, then the python sdk`);
  process.stdout.write(readFileSync(log, "utf8"));
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
