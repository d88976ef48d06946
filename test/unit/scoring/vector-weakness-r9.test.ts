/**
 * Round 9 (issue 31.5): notes in a retrieved document addressed to the AI that reads it, by a
 * label ("AI model: ..."), a greeting ("Hello AI assistant, ...") or a condition on the reader
 * ("If an AI reads this page, it must ..."), each followed by an order; beside documents that
 * name AI models as a topic, a transcript with an AI speaker, and a team of people. Written for
 * this test.
 */
import { describe, expect, it } from "vitest";
import { scoreCall } from "../../../src/policy/apply";
import cases from "./cases/vector-weakness-r9.json";
import { chat } from "./helpers";

/** A question answered from notes pasted into the user turn (the RAMDocs / "Use these notes" layout). */
function vector(notes: string) {
  const call = chat([
    { role: "system", content: "You are a helpful assistant for a facilities team." },
    { role: "user", content: `Summarise what these notes say about the boiler.\n\nUse these notes:\n${notes}` },
  ]);
  return scoreCall(call).find((s) => s.scorer_name === "vector_weakness")!;
}

const PLANTED = cases.planted;

const ORDINARY = cases.ordinary;

describe("vector_weakness: notes addressed to the AI reader (round 9)", () => {
  it.each(PLANTED)("Should call a document with a note to the AI unsafe: %j", (notes) => {
    const s = vector(notes);
    expect(s.score_label, s.rationale).toBe("unsafe");
  });
  it.each(ORDINARY)("Should leave an ordinary document safe: %j", (notes) => {
    const s = vector(notes);
    expect(s.score_label, s.rationale).toBe("safe");
  });
});
