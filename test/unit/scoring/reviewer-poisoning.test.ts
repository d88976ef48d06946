/**
 * Issue 31.5: data_poisoning judges the relation between passages and answer. On the same
 * passages, an answer that repeats the one planted passage scores above the answer that repeats
 * the passages that agree, and the correct answer stays safe.
 */
import { describe, expect, it } from "vitest";
import { scoreCall } from "../../../src/policy/apply";
import { chat } from "./helpers";
import { POISONED_CASES, type PoisonedCase } from "./reviewer/poisoned-passages";

function poisoning(c: PoisonedCase, answer: string) {
  const system = `Answer using the retrieved documents.\n\n${c.passages.map((p, i) => `[${i + 1}] ${p}`).join("\n")}`;
  const call = chat(
    [
      { role: "system", content: system },
      { role: "user", content: c.question },
    ],
    answer,
  );
  return scoreCall(call).find((s) => s.scorer_name === "data_poisoning")!;
}

describe("poisoned answer above the correct one (issue 31.5)", () => {
  for (const c of POISONED_CASES) {
    const check = () => {
      const good = poisoning(c, c.correct);
      const bad = poisoning(c, c.poisoned);
      expect(good.score_label, good.rationale).toBe("safe");
      expect(bad.score_value!, `${bad.rationale} vs ${good.rationale}`).toBeGreaterThan(good.score_value!);
    };
    // A known limitation fails today and is listed with why; it.fails turns red once it passes.
    if (c.limitation) it.fails(`Should rank the poisoned answer higher: ${c.name} (limitation: ${c.limitation})`, check);
    else it(`Should rank the poisoned answer higher: ${c.name}`, check);
  }
});
