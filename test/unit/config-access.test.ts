/**
 * Configuration is read in one place per worker: no `c.env` and no `env.SOME_VAR` outside the
 * config modules (src/config/ and its middleware workers/api/src/middleware/config.ts, workers/scorer/src/config.ts, workers/proxy/src/config.ts,
 * dashboard/server/config.ts); the entry files only hand `env` to the config parser.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const SCANNED = ["src", "workers/api/src", "workers/scorer/src", "workers/proxy/src", "dashboard/server"];
/** Files allowed to read env: the config modules. */
const CONFIG_MODULES = [
  /^src\/config\//,
  /^workers\/api\/src\/middleware\/config\.ts$/,
  /^workers\/[^/]+\/src\/config\.ts$/,
  /^dashboard\/server\/config\.ts$/,
];
/** `c.env`, `env.SOME_VAR`, or a destructuring `const { SOME_VAR } = env`. */
const ACCESS = /\bc\.env\b|\benv\.[A-Z_]+\b|\}\s*=\s*env\b/;

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return tsFiles(path);
    return path.endsWith(".ts") && !path.endsWith(".d.ts") ? [path] : [];
  });
}

/** `file:line: text` of every env access outside the config modules. */
function envAccesses(): string[] {
  const found: string[] = [];
  for (const dir of SCANNED)
    for (const path of tsFiles(join(ROOT, dir))) {
      const file = relative(ROOT, path).replaceAll("\\", "/");
      if (CONFIG_MODULES.some((re) => re.test(file))) continue;
      readFileSync(path, "utf8")
        .split("\n")
        .forEach((line, i) => {
          const code = line.replace(/\/\/.*$/, "");
          if (/^\s*(\*|\/\*)/.test(code)) return; // doc comments name variables
          if (ACCESS.test(code)) found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
  return found;
}

describe("configuration access", () => {
  it("Should read no c.env or env.VARIABLE outside each worker's config module", () => {
    expect(envAccesses()).toEqual([]);
  });
});
