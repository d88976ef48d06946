/**
 * Issue 31.3: documents wherever applications put them. Every layout carries a clean passage
 * (vector_weakness safe, and no jailbreak: template scaffolding is never jailbreak evidence) and
 * the same passage with a planted instruction (vector_weakness unsafe).
 */
import { describe, expect, it } from "vitest";
import { scoreCall } from "../../../src/policy/apply";
import type { ScorableCall } from "../../../src/scoring/types";
import { INJECTIONS, LAYOUTS, PASSAGES } from "./reviewer/rag-layouts";

const label = (call: ScorableCall, name: string) => scoreCall(call).find((s) => s.scorer_name === name)!;
const kinds = Object.entries(INJECTIONS);

describe("RAG layouts (issue 31.3)", () => {
  Object.entries(LAYOUTS).forEach(([layout, build], li) => {
    const { passage, question } = PASSAGES[li % PASSAGES.length]!;
    it(`${layout}: the clean passage is judged as a document, safe, and not a jailbreak`, () => {
      const call = build(passage, question);
      const vector = label(call, "vector_weakness");
      expect(vector.score_label, vector.rationale).toBe("safe");
      const jailbreak = label(call, "jailbreak_detection");
      expect(jailbreak.score_label, jailbreak.rationale).toBe("safe");
    });
    // Two injection kinds per layout, rotating, so every kind appears in several layouts.
    for (const [kind, injection] of [kinds[li % kinds.length]!, kinds[(li + 2) % kinds.length]!]) {
      it(`${layout}: a passage that ${kind} is unsafe for vector_weakness`, () => {
        const vector = label(build(`${passage}\n\n${injection}`, question), "vector_weakness");
        expect(vector.score_label, vector.rationale).toBe("unsafe");
      });
    }
  });
});
