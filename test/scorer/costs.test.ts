import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { consumeBatch } from "../../workers/scorer/src/consume";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { sql } from "../setup/sql";

/** A call as the client libraries log it: tokens from the provider, cost unknown (0). */
async function stored(call: { model: string; provider: string; prompt: number; completion: number; cost?: number; costSource?: string }) {
  const [p] = await sql<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'cost test') RETURNING id");
  const [r] = await sql<{ id: string }>(
    `INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, request_body, response_body, metadata, scoring_state, enqueued_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, 'queued', now()) RETURNING id`,
    [
      p!.id,
      call.model,
      call.provider,
      call.prompt,
      call.completion,
      call.cost ?? 0,
      JSON.stringify({ messages: [{ role: "user", content: "Summarise the meeting notes." }] }),
      JSON.stringify({ content: [{ type: "text", text: "Three decisions were taken." }] }),
      JSON.stringify(call.costSource ? { cost_source: call.costSource } : {}),
    ],
  );
  return { projectId: p!.id, requestId: r!.id };
}

async function consume(jobs: { requestId: string; projectId: string }[]) {
  const batch = createMessageBatch(
    "scoring-jobs",
    jobs.map((j, i) => ({ id: `m${i}`, body: { request_id: j.requestId, project_id: j.projectId }, timestamp: new Date(), attempts: 1 })),
  );
  const ctx = createExecutionContext();
  await consumeBatch(batch, env as unknown as ScorerEnv, ctx);
  return getQueueResult(batch, ctx);
}

const costOf = async (id: string) => {
  const [row] = await sql<{ cost_usd: string; cost_source: string | null }>(
    "SELECT cost_usd, metadata->>'cost_source' AS cost_source FROM llm_requests WHERE id = $1",
    [id],
  );
  return { cost: Number(row!.cost_usd), source: row!.cost_source };
};

describe("costs of calls logged without one", () => {
  it("Should price a client library's call from the catalogue before scoring, and keep it on redelivery", async () => {
    const small = await stored({ model: "claude-sonnet-4-5", provider: "anthropic", prompt: 1000, completion: 500, costSource: "unknown" });
    const large = await stored({ model: "claude-sonnet-4-5", provider: "anthropic", prompt: 2000, completion: 1000, costSource: "unknown" });
    const result = await consume([small, large]);
    expect(result.retryMessages).toEqual([]);
    const a = await costOf(small.requestId);
    const b = await costOf(large.requestId);
    expect(a.source).toBe("genai-prices");
    expect(a.cost).toBeGreaterThan(0);
    // Per-token prices: twice the tokens of each kind cost twice as much.
    expect(b.cost).toBeCloseTo(2 * a.cost, 8);
    const [{ n }] = (await sql<{ n: string }>("SELECT count(*) AS n FROM safety_scores WHERE request_id = $1", [small.requestId])) as [{ n: string }];
    expect(Number(n)).toBe(6);

    await consume([small]);
    expect(await costOf(small.requestId)).toEqual(a);
  });

  it("Should leave a logged cost, an unknown model and a call without tokens as they are", async () => {
    const logged = await stored({ model: "gpt-4o-mini", provider: "openai", prompt: 1000, completion: 500, cost: 0.25, costSource: "client" });
    const unknownModel = await stored({ model: "in-house-model-7", provider: "custom", prompt: 1000, completion: 500, costSource: "unknown" });
    const noTokens = await stored({ model: "gpt-4o-mini", provider: "openai", prompt: 0, completion: 0, costSource: "unknown" });
    const result = await consume([logged, unknownModel, noTokens]);
    expect(result.retryMessages).toEqual([]);
    expect(await costOf(logged.requestId)).toEqual({ cost: 0.25, source: "client" });
    expect(await costOf(unknownModel.requestId)).toEqual({ cost: 0, source: "unknown" });
    expect(await costOf(noTokens.requestId)).toEqual({ cost: 0, source: "unknown" });
  });
});
