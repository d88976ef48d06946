import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contextWindow, DEFAULT_CONTEXT_WINDOW } from "../../../src/scoring/scorers/unbounded_consumption/context-windows";
import { repeatedNgramRatio, scoreUnboundedConsumption } from "../../../src/scoring/scorers/unbounded_consumption/rules";
import type { ScorableCall } from "../../../src/scoring/types";

function call(req: Record<string, unknown>, res: unknown, extra: Partial<ScorableCall> = {}): ScorableCall {
  return {
    model: "gpt-4o-mini",
    provider: "openai",
    prompt_tokens: 100,
    completion_tokens: 10,
    cost_usd: 0.001,
    latency_ms: 500,
    request_body: { messages: [{ role: "user", content: "hi" }], ...req },
    response_body: res,
    ...extra,
  };
}

describe("unbounded_consumption", () => {
  it("Should look up context windows and fall back to 128k", () => {
    expect(contextWindow("claude-3-5-sonnet-20241022", "anthropic").window).toBe(200_000);
    expect(contextWindow("no-such-model-xyz")).toEqual({ window: DEFAULT_CONTEXT_WINDOW, known: false });
  });

  it("Should be safe for an ordinary call, always scored", () => {
    const r = scoreUnboundedConsumption(call({}, null));
    expect(r.score_value).toBe(1);
    expect(scoreUnboundedConsumption(call({}, null, { request_body: null })).score_label).toBe("safe");
  });

  it("Should flag prompts near or over the window", () => {
    expect(scoreUnboundedConsumption(call({}, null, { model: "unknown-x", prompt_tokens: 110_000 })).score_value).toBe(4);
    expect(scoreUnboundedConsumption(call({}, null, { model: "unknown-x", prompt_tokens: 200_000 })).score_value).toBe(5);
  });

  it("Should weigh max_tokens, n, logprobs and finish_reason length", () => {
    const r = scoreUnboundedConsumption(
      call(
        { model: "unknown-x", max_tokens: 200_000, n: 10, logprobs: true, top_logprobs: 20 },
        { choices: [{ message: { content: "x" }, finish_reason: "length" }] },
        { model: "unknown-x" },
      ),
    );
    expect(r.score_label).toBe("unsafe");
    for (const rule of ["huge_max_tokens", "multiple_completions_n", "logprobs_exposed", "finish_reason_length"]) expect(r.rationale).toContain(rule);
    expect(scoreUnboundedConsumption(call({ n: 2 }, null)).score_value).toBe(2);
  });

  it("Should detect runaway repetition but not normal prose", () => {
    const loop = "the cat sat on the mat ".repeat(100);
    expect(repeatedNgramRatio(loop).ratio).toBeGreaterThan(0.9);
    expect(scoreUnboundedConsumption(call({}, { choices: [{ message: { content: loop } }] })).score_label).toBe("unsafe");
    const prose = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" ");
    expect(repeatedNgramRatio(prose).ratio).toBe(0);
  });

  it("Should give the share of repeated word 4-grams exactly as counting the 4-grams as strings does", () => {
    const reference = (text: string) => {
      const w = text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
      if (w.length < 5) return 0;
      const seen = new Set<string>();
      let repeats = 0;
      for (let i = 0; i + 4 <= w.length; i++) {
        const g = w.slice(i, i + 4).join(" ");
        if (seen.has(g)) repeats++;
        else seen.add(g);
      }
      return repeats / (w.length - 3);
    };
    // Texts over a small vocabulary, so that 4-grams repeat often.
    const text = fc.array(fc.constantFrom("a", "b", "c", "The", "cat", "sat", "don't", "x1"), { minLength: 0, maxLength: 400 }).map((w) => w.join(" "));
    fc.assert(
      fc.property(text, (t) => repeatedNgramRatio(t).ratio === reference(t)),
      { numRuns: 300 },
    );
  });

  it("Should flag cost and latency outliers, relative to project stats when given", () => {
    expect(scoreUnboundedConsumption(call({}, null, { cost_usd: 25 })).score_value).toBe(4);
    expect(scoreUnboundedConsumption(call({}, null, { latency_ms: 200_000 })).score_value).toBe(3);
    const rel = call({}, null, { cost_usd: 0.5, metadata: { project_stats: { p99_cost_usd: 0.01 } } });
    expect(scoreUnboundedConsumption(rel).score_value).toBe(4);
    // An unknown cost (null) is no outlier: nothing is known about it.
    const unknown = scoreUnboundedConsumption(call({}, null, { cost_usd: null, metadata: { project_stats: { p99_cost_usd: 0.01 } } }));
    expect(scoreUnboundedConsumption(rel).rationale).toContain("cost_outlier");
    expect(unknown.rationale).not.toContain("cost_outlier");
  });
});
