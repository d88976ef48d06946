/**
 * One room per scorer (issue 31): `src/scoring/scorers/<name>/` holds a scorer's rules,
 * lexicon, view, spec, pins and weights. That the shared core around the rooms (text extraction,
 * rules engine, inference) imports no room, and that a room reads another room only along the
 * declared edges, are import rules of test/unit/import-rules.test.ts (`ROOM_EDGES` there, each
 * with its reason).
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { SCORER_NAMES } from "../../../src/enums";
import { LEARNED_SPECS } from "../../../src/scoring/specs";

const ROOT = resolve(import.meta.dirname, "../../..");
const ROOMS = "src/scoring/scorers/";

describe("Scorer rooms (src/scoring/scorers/<name>/)", () => {
  it("Should give every scorer a room, and every learned scorer its rules, view, spec, pins and weights", () => {
    for (const name of SCORER_NAMES) expect(existsSync(resolve(ROOT, ROOMS, name, "rules.ts")), name).toBe(true);
    for (const name of Object.keys(LEARNED_SPECS)) {
      for (const f of ["view.ts", "spec.ts", "pins.ts", "scorer.ts", "weights.json"])
        expect(existsSync(resolve(ROOT, ROOMS, name, f)), `${name}/${f}`).toBe(true);
    }
  });
});
