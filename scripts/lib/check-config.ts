/**
 * Fails early on a bad variable: `npm run dev` and `npm run deploy` (with `--dry-run` too) check
 * the `vars` of each worker's wrangler.jsonc, with any overrides they pass, against the worker's
 * own config schema (src/config/api.ts, workers/scorer/src/config.ts, workers/proxy/src/config.ts,
 * dashboard/server/config.ts) before starting or deploying anything.
 */
import { dashboardVars } from "../../dashboard/server/config";
import { apiVars } from "../../src/config/api";
import { ConfigError } from "../../src/config/error";
import { checkVars } from "../../src/config/parse";
import { proxyVars } from "../../workers/proxy/src/config";
import { scorerVars } from "../../workers/scorer/src/config";
import { readWorkerConfig } from "./wrangler-config";

const CHECKED = [
  { name: "API", config: "workers/api/wrangler.jsonc", schema: apiVars },
  { name: "scorer", config: "workers/scorer/wrangler.jsonc", schema: scorerVars },
  { name: "proxy", config: "workers/proxy/wrangler.jsonc", schema: proxyVars },
  { name: "dashboard", config: "dashboard/wrangler.jsonc", schema: dashboardVars },
] as const;

/**
 * Problems of every worker's variables (`worker (file): NAME: expected ...`), empty when all
 * are valid. `overrides` are variables set on top of a worker's file, by worker name.
 */
export function configProblems(overrides: Partial<Record<(typeof CHECKED)[number]["name"], Record<string, unknown>>> = {}): string[] {
  return CHECKED.flatMap(({ name, config, schema }) => {
    const vars = { ...(readWorkerConfig(config).vars ?? {}), ...(overrides[name] ?? {}) } as Record<string, unknown>;
    try {
      checkVars(schema, vars);
      return [];
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      return err.problems.map((p) => `${name} (${config}): ${p}`);
    }
  });
}

/** Prints the problems and exits with status 1 when a worker's variables are invalid. */
export function exitOnBadConfig(overrides?: Parameters<typeof configProblems>[0]): void {
  const problems = configProblems(overrides);
  if (problems.length === 0) return;
  console.error(`✘ server configuration is invalid:\n${problems.map((p) => `  ${p}`).join("\n")}`);
  process.exit(1);
}
