/**
 * `npm test`: every test suite of the repository, in one command.
 * 1. Vitest: the `unit` project (Node) and the `workers` project (workerd + embedded Postgres).
 * Exits non-zero when any suite fails.
 */
import { spawnSync } from "node:child_process";
import { ROOT } from "./lib/postgres";

const suites: { name: string; cmd: string; args: string[] }[] = [
  { name: "vitest (unit + workers)", cmd: "vitest", args: ["run", ...process.argv.slice(2)] },
];

let failed = 0;
for (const suite of suites) {
  console.log(`\n▶ ${suite.name}`);
  const r = spawnSync(suite.cmd, suite.args, { cwd: ROOT, stdio: "inherit", env: process.env });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
