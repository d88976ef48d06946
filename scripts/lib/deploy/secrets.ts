/**
 * Worker secrets for `npm run deploy`: which exist, where each value comes from, and setting
 * the missing ones without a value ever reaching a command line or our output. A value comes
 * from the environment, else a hidden prompt (terminal only), else (INTERNAL_API_SECRET only) is
 * generated and kept in .wrangler/deploy/INTERNAL_API_SECRET (mode 0600) for the operator CLI and
 * the dashboard. Secrets already set on the worker are kept unless --update-secrets is given
 * with a value in the environment (secret values cannot be read back to compare).
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline/promises";
import { deployDir } from "../wrangler-config";
import { parseJson, registerSecret, wrangler, wranglerOk } from "./wrangler-cli";

/** A secret a worker reads. */
export interface SecretSpec {
  name: string;
  /** The deployment fails without it. */
  required: boolean;
  /** Only where billing is sold (SIGHTLINE_DEPLOYMENT=managed, or STRIPE_* given). */
  billing?: boolean;
  /** Generated (32 random bytes, hex) when not given and not set yet. */
  generate?: boolean;
}

/** Secrets of the API worker (workers/api/src/env.ts); the scorer and the proxy have none. */
export const API_SECRET_SPECS: readonly SecretSpec[] = [
  { name: "INTERNAL_API_SECRET", required: true, generate: true },
  { name: "STRIPE_SECRET_KEY", required: false, billing: true },
  { name: "PAYMENT_WEBHOOK_SECRET", required: false, billing: true },
];

/** Where a generated INTERNAL_API_SECRET is kept (git-ignored, 0600). */
export const generatedSecretFile = (): string => join(deployDir(), "INTERNAL_API_SECRET");

/** Names of the secrets set on the worker of `config`, or null when the worker does not exist. */
export async function existingSecrets(config: string): Promise<Set<string> | null> {
  const r = await wrangler(["secret", "list", "-c", config, "--format", "json"]);
  if (r.code !== 0) {
    // wrangler 4 (secretListCommand): `Worker "<name>" not found.` for the API's error 10007.
    if (/Worker "[^"]*"[^\n]* not found|\b10007\b/.test(r.stderr + r.stdout)) return null;
    throw new Error(`wrangler secret list failed:\n${(r.stderr + r.stdout).slice(-1000)}`);
  }
  return new Set(parseJson<{ name: string }[]>(r.stdout).map((s) => s.name));
}

/** Asks for a value on the terminal without echoing it; "" when stdin is not a terminal. */
export async function promptHidden(question: string): Promise<string> {
  if (!process.stdin.isTTY) return "";
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  // Echo the question only, not what is typed.
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
    if (s.includes(question)) process.stdout.write(question);
  };
  try {
    return (await rl.question(question)).trim();
  } finally {
    rl.close();
    process.stdout.write("\n");
  }
}

/** The INTERNAL_API_SECRET this machine knows: the environment's, else the generated file's. */
export function knownInternalSecret(): string | undefined {
  if (process.env.INTERNAL_API_SECRET) return process.env.INTERNAL_API_SECRET;
  return existsSync(generatedSecretFile()) ? readFileSync(generatedSecretFile(), "utf8").trim() : undefined;
}

/** Value of `spec` for this run, or undefined (optional and not given). */
async function secretValue(spec: SecretSpec, log: (line: string) => void): Promise<string | undefined> {
  const fromEnv = process.env[spec.name];
  if (fromEnv) return fromEnv;
  if (spec.generate) {
    const known = knownInternalSecret();
    if (known) return known;
  }
  const typed = await promptHidden(`${spec.name}${spec.required ? "" : " (empty: skip)"}: `);
  if (typed) return typed;
  if (spec.generate) {
    const value = randomBytes(32).toString("hex");
    const file = generatedSecretFile();
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, value + "\n", { mode: 0o600 });
    chmodSync(file, 0o600);
    log(`  generated ${spec.name}; kept in ${file} (mode 0600)`);
    return value;
  }
  if (spec.required) throw new Error(`${spec.name} is required: set it in the environment or run npm run deploy in a terminal`);
  return undefined;
}

/** What `applySecrets` decided for one worker. */
export interface SecretsOutcome {
  /** Set now with `wrangler secret put` (existing worker). */
  put: string[];
  /** For a worker that does not exist yet: a JSON file for `wrangler deploy --secrets-file`. */
  secretsFile?: string;
  /** Names in the secrets file. */
  withDeploy: string[];
  kept: string[];
  /** Removes the temporary secrets file. */
  cleanup(): void;
}

/**
 * Sets the secrets `specs` of the worker of `config` that are missing (or, with `update`, given
 * in the environment). For a new worker wrangler requires them with its first deploy
 * (`--secrets-file`, a JSON file in a private temporary directory, removed by `cleanup`).
 */
export async function applySecrets(
  config: string,
  specs: readonly SecretSpec[],
  opts: { update: boolean; log: (line: string) => void },
): Promise<SecretsOutcome> {
  const existing = await existingSecrets(config);
  const out: SecretsOutcome = { put: [], withDeploy: [], kept: [], cleanup: () => {} };
  const toSet: Record<string, string> = {};
  for (const spec of specs) {
    const isSet = existing?.has(spec.name) ?? false;
    if (isSet && !(opts.update && process.env[spec.name])) {
      out.kept.push(spec.name);
      continue;
    }
    const value = await secretValue(spec, opts.log);
    if (value === undefined) continue;
    registerSecret(value);
    toSet[spec.name] = value;
  }
  if (existing === null) {
    if (Object.keys(toSet).length > 0) {
      const dir = mkdtempSync(join(tmpdir(), "sightline-deploy-"));
      out.secretsFile = join(dir, "secrets.json");
      writeFileSync(out.secretsFile, JSON.stringify(toSet), { mode: 0o600 });
      out.withDeploy = Object.keys(toSet);
      out.cleanup = () => rmSync(dir, { recursive: true, force: true });
    }
    return out;
  }
  for (const [name, value] of Object.entries(toSet)) {
    // The value goes through stdin (wrangler reads it when stdin is not a terminal).
    await wranglerOk(["secret", "put", name, "-c", config], { input: value });
    out.put.push(name);
  }
  return out;
}
