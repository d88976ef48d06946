/**
 * The export skips masking the calls ingest found free of personal data under the running
 * `MASKER_VERSION` (src/pii/mask.ts, `llm_requests.pii_free_version`). That is only right while
 * masking has not changed since: so any change to the files that decide what masking does must
 * be looked at, and MASKER_VERSION raised when masking could now change a value it left alone
 * before (a new detector, a wider pattern, a looser validator). This test holds their digest.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MASKER_VERSION } from "../../src/pii/mask";

const ROOT = join(import.meta.dirname, "../..");
/** What masking does: the detectors, their validators, the search and overlap rules, the JSON walk. */
const MASKER_FILES = ["src/pii/patterns.ts", "src/pii/validators.ts", "src/pii/detect.ts", "src/pii/mask.ts"];
const RECORD = join(import.meta.dirname, "pii-masker-version.json");

function digest(): string {
  const hash = createHash("sha256");
  for (const f of MASKER_FILES) hash.update(`${f}\n`).update(readFileSync(join(ROOT, f)));
  return hash.digest("hex");
}

describe("MASKER_VERSION", () => {
  it("Should be recorded with the digest of the masker's files (raise it when masking changes, then record)", () => {
    const now = { masker_version: MASKER_VERSION, sha256: digest() };
    // SIGHTLINE_RECORD_MASKER=1 writes the record after a reviewed change.
    if (process.env.SIGHTLINE_RECORD_MASKER === "1") writeFileSync(RECORD, `${JSON.stringify(now, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(RECORD, "utf8")) as typeof now;
    expect(
      now,
      `${MASKER_FILES.join(", ")} changed. If masking may now change a value it left unchanged before, raise MASKER_VERSION ` +
        "(src/pii/mask.ts) so the export masks the calls stored before; then run this test with SIGHTLINE_RECORD_MASKER=1.",
    ).toEqual(recorded);
  });
});
