import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import manifest from "../../src/scoring/scorers/manifest.json";
import { SCORER_NAMES } from "../../src/enums";
import { LEARNED_RULES_REVISIONS, RULE_SCORER_VERSIONS, SCORER_VERSIONS } from "../../src/scoring/version";

const MODELS = resolve(import.meta.dirname, "../../src/scoring/scorers");

describe("Scorer versions (src/scoring/version.ts)", () => {
  it("Should version each learned scorer by the digest of the model file it runs", () => {
    const models = manifest.models as Record<string, { file: string; model_sha256: string }>;
    for (const name of SCORER_NAMES) {
      if (name in RULE_SCORER_VERSIONS) {
        expect(SCORER_VERSIONS[name]).toMatch(/^rules-\d+$/);
        continue;
      }
      const entry = models[name]!;
      // The manifest's digest is the model file's: a new model file without a manifest update fails here.
      const digest = createHash("sha256")
        .update(readFileSync(resolve(MODELS, entry.file)))
        .digest("hex");
      expect(entry.model_sha256, name).toBe(digest);
      const rules = LEARNED_RULES_REVISIONS[name] ?? 1;
      expect(SCORER_VERSIONS[name]).toBe(`model-${digest.slice(0, 12)}${rules > 1 ? `.rules-${rules}` : ""}`);
    }
  });
});
