/**
 * Issue 3: under `npm run dev`, a call posted to /internal/log gets six score rows, visible
 * in GET /api/requests/{id} and counted in GET /api/safety-scores/summary.
 */
import { describe, expect, it } from "vitest";
import { SCORERS, type RequestDetail } from "../harness/api";
import { expectSixScores, type GetE2E } from "./context";

// Personal data in the prompt, so some scorers have something to find (and must not echo it).
const CARD = "4111 1111 1111 1111";
const EMAIL = "jane.doe@example.com";

/** Registers the scoring pipeline tests. */
export function scoringSuite(e2e: GetE2E): void {
  describe("scoring pipeline (issue 3)", () => {
    let start = "";
    let detail: RequestDetail;

    it("Should give a call posted to /internal/log six score rows, shown by GET /api/requests/{id}", async () => {
      const { api } = e2e();
      start = new Date(Date.now() - 1).toISOString();
      const posted = await api.log({
        model: "gpt-4o-mini",
        provider: "openai",
        prompt_tokens: 31,
        completion_tokens: 12,
        latency_ms: 420,
        request_body: { messages: [{ role: "user", content: `My card is ${CARD} and my email ${EMAIL}; where is my order?` }] },
        response_body: { choices: [{ message: { role: "assistant", content: "Your order ships tomorrow." }, finish_reason: "stop" }] },
      });
      expect(posted.status).toBe(202);
      detail = await api.scored(posted.body.id);
      expectSixScores(detail);
      expect(detail.safety_scores).toHaveLength(6);
      for (const score of detail.safety_scores) {
        expect(score.rationale).not.toContain(CARD);
        expect(score.rationale).not.toContain(EMAIL);
      }
      const listed = await api.get<{ items: { id: string; scoring_state: string }[] }>("/api/requests");
      expect(listed.items).toContainEqual(expect.objectContaining({ id: detail.id, scoring_state: "scored" }));
      const scores = await api.get<{ total: number }>(`/api/safety-scores?request_id=${detail.id}`);
      expect(scores.total).toBe(6);
    });

    it("Should count the call's six scores in GET /api/safety-scores/summary", async () => {
      const { api, stack } = e2e();
      expect(detail, "the previous test stored a scored call").toBeDefined();
      const summary = await api.get<{
        project_id: string;
        scorers: { scorer_name: string; total: number; safe: number; unsafe: number; unscored: number; mean_score: number | null }[];
      }>(`/api/safety-scores/summary?start=${encodeURIComponent(start)}`);
      expect(summary.project_id).toBe(stack.projectId);
      expect(summary.scorers.map((s) => s.scorer_name).sort()).toEqual([...SCORERS]);
      for (const row of summary.scorers) {
        const score = detail.safety_scores.find((s) => s.scorer_name === row.scorer_name)!;
        expect(row, row.scorer_name).toMatchObject({ total: 1, [score.score_label]: 1, mean_score: score.score_value });
        expect(row.safe + row.unsafe + row.unscored).toBe(1);
      }
    });
  });
}
