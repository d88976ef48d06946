/**
 * What the README scripts need around them, as a user would have it: the `sightline` Node
 * package installed in the script's project, the Python library on PYTHONPATH, provider
 * clients, and an environment holding only the keys and base URLs the READMEs name.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../../scripts/lib/postgres";
import { describeRun, runProgram } from "./run";

/**
 * Builds sdk/js from source into `dir/node_modules/sightline` (package.json and dist, what
 * `npm install ./sdk/js` after a build gives). `dir` must lie inside the repository so that
 * `openai`, `@anthropic-ai/sdk` and `cohere-ai` resolve from its node_modules.
 */
export async function installSightlineJs(dir: string): Promise<void> {
  const pkg = join(dir, "node_modules", "sightline");
  mkdirSync(pkg, { recursive: true });
  copyFileSync(join(ROOT, "sdk/js/package.json"), join(pkg, "package.json"));
  const tsc = join(ROOT, "node_modules/typescript/bin/tsc");
  const built = await runProgram(process.execPath, [tsc, "-p", join(ROOT, "sdk/js/tsconfig.json"), "--outDir", join(pkg, "dist")], {
    cwd: ROOT,
    env: process.env,
    timeoutMs: 180_000,
  });
  if (built.code !== 0) throw new Error(describeRun("tsc -p sdk/js", built));
}

/** Where the Python provider clients come from for the README script. */
export interface PythonProviders {
  /** Extra PYTHONPATH entries (the stand-in clients), empty with the real SDKs. */
  paths: string[];
  note: string;
}

/**
 * The real `openai`, `anthropic` and `cohere` packages when python3 can import all three;
 * otherwise the stand-in clients of test/e2e/python (same public shape, real HTTP wire calls).
 */
export function pythonProviders(): PythonProviders {
  const probe = spawnSync("python3", ["-c", "import openai, anthropic, cohere"], { encoding: "utf8" });
  return probe.status === 0
    ? { paths: [], note: "real provider SDKs" }
    : { paths: [join(ROOT, "test/e2e/python")], note: "stand-in provider clients, the Python provider SDKs are not installed" };
}

/** Variables of the caller's environment that could point a script somewhere else. */
const FOREIGN = /^(SERVICE_API_KEY|SIGHTLINE_.*|OPENAI_.*|ANTHROPIC_.*|CO_.*|COHERE_.*|PYTHON.*|NODE_OPTIONS|VITEST.*)$/;

/**
 * The environment of a README script: the caller's, minus anything that could redirect it,
 * plus the Sightline key and addresses and the providers' keys and base URLs (stand-ins).
 */
export function scriptEnv(opts: {
  key: string;
  apiUrl: string;
  proxyUrl: string;
  directUrl: string;
  extra?: Record<string, string>;
}): Record<string, string | undefined> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !FOREIGN.test(k)));
  return {
    ...env,
    SERVICE_API_KEY: opts.key,
    SIGHTLINE_BASE_URL: opts.apiUrl,
    SIGHTLINE_PROXY_URL: opts.proxyUrl,
    OPENAI_API_KEY: "sk-e2e-openai",
    ANTHROPIC_API_KEY: "sk-ant-e2e",
    ANTHROPIC_BASE_URL: opts.directUrl,
    CO_API_KEY: "co-e2e",
    CO_API_URL: opts.directUrl,
    ...opts.extra,
  };
}
