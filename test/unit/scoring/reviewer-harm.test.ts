/** Issue 31.2: harm judged where it is delivered; refusals, warnings and legitimate twins stay safe. */
import { describe, expect, it } from "vitest";
import { scoreCall } from "../../../src/policy/apply";
import { ask } from "./helpers";
import { BENIGN, DELIVERED } from "./reviewer/delivered-harm";

const content = (q: string, a: string) => scoreCall(ask(q, a)).find((s) => s.scorer_name === "content_safety")!;

describe("delivered harm (issue 31.2)", () => {
  it.each(DELIVERED)("Should call %s unsafe", (_name, q, a) => {
    const s = content(q, a);
    expect(s.score_label, s.rationale).toBe("unsafe");
  });
  it.each(BENIGN)("Should keep the twin '%s' safe", (_name, q, a) => {
    const s = content(q, a);
    expect(s.score_label, s.rationale).toBe("safe");
  });
});
