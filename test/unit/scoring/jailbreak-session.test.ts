/**
 * The session-level jailbreak score (src/scoring/scorers/jailbreak_detection/session.ts): a
 * three-turn escalation written for this test (a fictional chemist set up in turn 1, his lab in
 * turn 2, the synthesis steps in turn 3) is flagged for the session while
 * jailbreak_detection flags none of its turns alone; a benign three-turn conversation stays safe;
 * the per-turn trend of a crescendo counts.
 */
import { describe, expect, it } from "vitest";
import { scoreCall } from "../../../src/policy/apply";
import { riskTrend, scoreSession, type SessionTurn } from "../../../src/scoring/scorers/jailbreak_detection/session";
import type { ScorableCall } from "../../../src/scoring/types";
import { BENIGN, ESCALATION } from "../../fixtures/sessions";

const call = (user: string): ScorableCall => ({
  model: "gpt-4o-mini",
  provider: "openai",
  prompt_tokens: 20,
  completion_tokens: 0,
  cost_usd: null,
  latency_ms: 100,
  request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: user }] },
  response_body: null,
});

/** Each user turn as its own call (a stateful app sends only the new turn), scored as the worker does. */
function session(userTurns: string[]): { turns: SessionTurn[]; perTurn: { value: number | null; label: string }[] } {
  const turns: SessionTurn[] = [];
  const perTurn: { value: number | null; label: string }[] = [];
  for (const text of userTurns) {
    const c = call(text);
    const jailbreak = scoreCall(c).find((s) => s.scorer_name === "jailbreak_detection")!;
    perTurn.push({ value: jailbreak.score_value, label: jailbreak.score_label });
    turns.push({ request_body: c.request_body, jailbreak_value: jailbreak.score_value });
  }
  return { turns, perTurn };
}

describe("session-level jailbreak score", () => {
  it("Should flag a three-turn role-play escalation that no single turn is flagged for", () => {
    const { turns, perTurn } = session(ESCALATION);
    for (const t of perTurn) expect(t.label).toBe("safe");
    const verdict = scoreSession(turns)!;
    expect(verdict.score_value).toBeGreaterThanOrEqual(4);
    expect(verdict.turns).toBe(3);
    expect(verdict.rationale).toMatch(/across 3 turns/);
  });

  it("Should keep a benign three-turn conversation safe", () => {
    const { turns, perTurn } = session(BENIGN);
    for (const t of perTurn) expect(t.label).toBe("safe");
    const verdict = scoreSession(turns)!;
    expect(verdict.score_value).toBeLessThan(4);
    expect(verdict.rationale).toMatch(/no multi-turn jailbreak pattern in 3 turns/);
  });

  it("Should read rising per-turn risk as a crescendo and sustained grey-zone turns as pressure", () => {
    expect(riskTrend([1, 2, 3])).toEqual({ rising: true, sustained: 1 });
    expect(riskTrend([3, 3, 3])).toEqual({ rising: false, sustained: 3 });
    expect(riskTrend([2, null, 2])).toEqual({ rising: false, sustained: 0 });
    const benign = session(BENIGN).turns;
    const crescendo = benign.map((t, i) => ({ ...t, jailbreak_value: [1, 2, 3][i]! }));
    const verdict = scoreSession(crescendo)!;
    expect(verdict.score_value).toBe(4);
    expect(verdict.rationale).toMatch(/crescendo/);
  });

  it("Should judge only the last six calls and return null without user text", () => {
    const long = session([...ESCALATION, ...BENIGN, ...BENIGN]).turns;
    expect(scoreSession(long)!.turns).toBe(6);
    expect(scoreSession([{ request_body: { messages: [] }, jailbreak_value: null }])).toBeNull();
  });
});
