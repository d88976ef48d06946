/**
 * The three worker configurations (wrangler.jsonc files) and generated copies of them.
 * A generated copy lives under .wrangler/ (git-ignored, mode 0600) and differs from its source
 * only by what must never be committed: development values (`npm run dev`) or account-specific
 * ids (`npm run deploy`). Paths inside (main, assets) are rewritten so the copy bundles the same
 * sources. Read with wrangler's own JSONC reader, so comments and trailing commas are fine.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { experimental_readRawConfig, type Unstable_RawConfig } from "wrangler";
import { ROOT } from "./postgres";

/** A worker of the repository: its short name and its config, relative to the repository root. */
export interface WorkerConfigRef {
  id: "api" | "scorer" | "proxy";
  config: string;
}

/** The workers in dependency order (a service binding's target first: the proxy binds to the API). */
export const WORKERS: readonly WorkerConfigRef[] = [
  { id: "api", config: "workers/api/wrangler.jsonc" },
  { id: "scorer", config: "workers/scorer/wrangler.jsonc" },
  { id: "proxy", config: "workers/proxy/wrangler.jsonc" },
];

/** Path of a worker's config by id. */
export const configOf = (id: WorkerConfigRef["id"]): string => WORKERS.find((w) => w.id === id)!.config;

/** The raw (unvalidated) config of `config` (relative to the repository root). */
export function readWorkerConfig(config: string): Unstable_RawConfig {
  return experimental_readRawConfig({ config: resolve(ROOT, config) }).rawConfig;
}

/** Rewrites a path of `source`'s config so it holds from `target`'s directory. */
function rebase(path: string, source: string, target: string): string {
  if (isAbsolute(path)) return path;
  return relative(dirname(target), resolve(dirname(source), path)) || ".";
}

/**
 * Writes `patch(config)` of `source` to `target` (both relative to the repository root or
 * absolute) as JSON, mode 0600 (it may hold secrets or account ids); returns the absolute target.
 */
export function writeGeneratedConfig(source: string, target: string, patch: (config: Unstable_RawConfig) => Unstable_RawConfig): string {
  const src = resolve(ROOT, source);
  const out = resolve(ROOT, target);
  const config = patch(structuredClone(readWorkerConfig(source)));
  delete (config as { $schema?: string }).$schema;
  if (config.main) config.main = rebase(config.main, src, out);
  if (config.tsconfig) config.tsconfig = rebase(config.tsconfig, src, out);
  if (config.assets?.directory) config.assets = { ...config.assets, directory: rebase(config.assets.directory, src, out) };
  mkdirSync(dirname(out), { recursive: true });
  const header = `// Generated from ${relative(dirname(out), src)} by scripts/lib/wrangler-config.ts; do not edit or commit.\n`;
  writeFileSync(out, header + JSON.stringify(config, null, 2) + "\n", { mode: 0o600 });
  chmodSync(out, 0o600);
  return out;
}

/** Directory of generated configs for `purpose` ("dev", "deploy"), under ROOT/.wrangler. */
export const generatedDir = (purpose: string): string => join(ROOT, ".wrangler", purpose);

/** Where `npm run deploy` keeps its generated configs and state (SIGHTLINE_DEPLOY_DIR; tests). */
export const deployDir = (): string => process.env.SIGHTLINE_DEPLOY_DIR || generatedDir("deploy");
