/**
 * One room per scorer (issue 31): `src/scoring/scorers/<name>/` holds a scorer's rules,
 * lexicon, view, spec, pins and weights. The shared core around the rooms (text extraction,
 * rules engine, inference) imports no room; `inference/` in particular reads no scorer; a room
 * reads another room only along the edges declared here, each with its reason.
 */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import madge from "madge";
import { describe, expect, it } from "vitest";
import { LEARNED_SPECS } from "../../../src/scoring/specs";
import { SCORER_NAMES } from "../../../src/enums";

const ROOT = resolve(import.meta.dirname, "../../..");
const ROOMS = "src/scoring/scorers/";
/** Modules that wire the rooms together: the registry, the trainer's spec table. */
const WIRING = new Set(["src/scoring/registry.ts", "src/scoring/specs.ts"]);
/** Declared room-to-room reads. */
const EDGES = new Set([
  // Documents are judged with the jailbreak prompt lexicon (an instruction planted in a document).
  "vector_weakness->jailbreak_detection",
  // A planted passage that carries an injection also counts as poisoning evidence.
  "data_poisoning->vector_weakness",
  // A harmful goal inside a jailbreak frame is named by content_safety's hazard lexicon.
  "jailbreak_detection->content_safety",
]);

/** The room of a file under `scorers/<name>/`; files beside the rooms (the manifest) belong to none. */
const roomOf = (file: string) => {
  const rest = file.startsWith(ROOMS) ? file.slice(ROOMS.length).split("/") : [];
  return rest.length > 1 ? rest[0] : undefined;
};

describe("Scorer rooms (src/scoring/scorers/<name>/)", () => {
  it("Should keep the core free of rooms and rooms apart except along declared edges", async () => {
    const graph = (
      await madge(resolve(ROOT, "src/scoring"), {
        baseDir: ROOT,
        fileExtensions: ["ts"],
        tsConfig: resolve(ROOT, "tsconfig.json"),
        detectiveOptions: { ts: { skipTypeImports: false } },
      })
    ).obj();
    expect(Object.keys(graph).length).toBeGreaterThan(30);
    const bad: string[] = [];
    for (const [file, deps] of Object.entries(graph)) {
      const from = roomOf(file);
      for (const dep of deps) {
        const to = roomOf(dep);
        if (!to || to === from) continue;
        if (file.startsWith("src/scoring/inference/")) bad.push(`${file} -> ${dep} (inference reads no scorer)`);
        else if (!from && !WIRING.has(file)) bad.push(`${file} -> ${dep} (the core reads no room)`);
        else if (from && !EDGES.has(`${from}->${to}`)) bad.push(`${file} -> ${dep} (undeclared room edge)`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("Should give every scorer a room, and every learned scorer its rules, view, spec, pins and weights", () => {
    for (const name of SCORER_NAMES) expect(existsSync(resolve(ROOT, ROOMS, name, "rules.ts")), name).toBe(true);
    for (const name of Object.keys(LEARNED_SPECS)) {
      for (const f of ["view.ts", "spec.ts", "pins.ts", "scorer.ts", "weights.json"])
        expect(existsSync(resolve(ROOT, ROOMS, name, f)), `${name}/${f}`).toBe(true);
    }
  });
});
