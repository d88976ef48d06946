/**
 * `npm run train` reproduces the committed model files byte for byte: a fresh fit (k-fold for
 * the calibration and threshold, then the final fit; leave-one-source-out skipped) on the same
 * data must give files with the SHA-256 the manifest records. Needs ../shared/eval and
 * Debian's python3-sklearn (installed by `npm run train` itself when running as root).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const MODELS = join(ROOT, "src/scoring/scorers");
const manifest = JSON.parse(readFileSync(join(MODELS, "manifest.json"), "utf8")) as { models: Record<string, { file: string; model_sha256: string }> };

describe("npm run train", () => {
  it("Should record in the manifest the digest of every committed model file", () => {
    expect(Object.keys(manifest.models).sort()).toEqual(["content_safety", "data_poisoning", "jailbreak_detection", "vector_weakness"]);
    for (const [name, m] of Object.entries(manifest.models)) {
      const digest = createHash("sha256")
        .update(readFileSync(join(MODELS, m.file)))
        .digest("hex");
      expect(digest, name).toBe(m.model_sha256);
    }
  });

  it("Should reproduce the committed model files byte for byte from the training data", () => {
    const run = spawnSync(process.execPath, ["--import", "tsx", "scripts/train.ts", "--check"], { cwd: ROOT, encoding: "utf8" });
    const out = `${run.stdout}\n${run.stderr}`;
    expect(out, out.slice(-2000)).toMatch(/identical/);
    expect(out).not.toMatch(/DIFFERENT/);
    expect(run.status, out.slice(-2000)).toBe(0);
  });
});
