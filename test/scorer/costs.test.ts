import { createExecutionContext, createMessageBatch, env, getQueueResult } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { PRICE_TABLE_VERSION } from "../../src/pricing/price-call";
import { consumeBatch } from "../../workers/scorer/src/consume";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { sql } from "../setup/sql";

/**
 * A call as the client libraries log it: tokens from the provider, cost unknown (null), unless
 * `cost` was reported; `cacheRead`/`cacheWrite`: prompt-cache tokens.
 */
async function stored(call: { model: string; provider: string; prompt: number; completion: number; cost?: number; cacheRead?: number; cacheWrite?: number }) {
  const [p] = await sql<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'cost test') RETURNING id");
  const [r] = await sql<{ id: string }>(
    `INSERT INTO llm_requests (id, project_id, model, provider, prompt_tokens, completion_tokens, cost_usd, cost_source, cache_read_tokens, cache_write_tokens,
       request_body, response_body, scoring_state, enqueued_at)
     VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'queued', now()) RETURNING id`,
    [
      p!.id,
      call.model,
      call.provider,
      call.prompt,
      call.completion,
      call.cost ?? null,
      call.cost === undefined ? null : "reported",
      call.cacheRead ?? null,
      call.cacheWrite ?? null,
      JSON.stringify({ messages: [{ role: "user", content: "Summarise the meeting notes." }] }),
      JSON.stringify({ content: [{ type: "text", text: "Three decisions were taken." }] }),
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
  const [row] = await sql<{ cost_usd: string | null; cost_source: string | null; price_version: string | null }>(
    "SELECT cost_usd, cost_source, price_version FROM llm_requests WHERE id = $1",
    [id],
  );
  return { cost: row!.cost_usd === null ? null : Number(row!.cost_usd), source: row!.cost_source, version: row!.price_version };
};

describe("costs of calls logged without one", () => {
  it("Should price a client library's call from the catalogue before scoring, and keep it on redelivery", async () => {
    const small = await stored({ model: "claude-sonnet-4-5", provider: "anthropic", prompt: 1000, completion: 500 });
    const large = await stored({ model: "claude-sonnet-4-5", provider: "anthropic", prompt: 2000, completion: 1000 });
    // The same call with 900 of its prompt tokens read from the cache, 100 written to it.
    const cached = await stored({ model: "claude-sonnet-4-5", provider: "anthropic", prompt: 1000, completion: 500, cacheRead: 900, cacheWrite: 100 });
    const result = await consume([small, large, cached]);
    expect(result.retryMessages).toEqual([]);
    const a = await costOf(small.requestId);
    const b = await costOf(large.requestId);
    expect(a).toMatchObject({ source: "genai-prices", version: PRICE_TABLE_VERSION });
    expect(a.cost).toBeGreaterThan(0);
    // Per-token prices: twice the tokens of each kind cost twice as much.
    expect(b.cost).toBeCloseTo(2 * a.cost!, 8);
    // Cache rates (Claude Sonnet 4.5: reads $0.30, writes $3.75 instead of $3 per MTok): 900 * 2.70 cheaper, 100 * 0.75 dearer.
    expect((await costOf(cached.requestId)).cost).toBeCloseTo(a.cost! - (900 * 2.7 - 100 * 0.75) / 1e6, 10);
    const [{ n }] = (await sql<{ n: string }>("SELECT count(*) AS n FROM safety_scores WHERE request_id = $1", [small.requestId])) as [{ n: string }];
    expect(Number(n)).toBe(6);

    await consume([small]);
    expect(await costOf(small.requestId)).toEqual(a);
  });

  it("Should leave a logged cost, an unknown model and a call without tokens as they are", async () => {
    const logged = await stored({ model: "gpt-4o-mini", provider: "openai", prompt: 1000, completion: 500, cost: 0.25 });
    const unknownModel = await stored({ model: "in-house-model-7", provider: "custom", prompt: 1000, completion: 500 });
    const noTokens = await stored({ model: "gpt-4o-mini", provider: "openai", prompt: 0, completion: 0 });
    const result = await consume([logged, unknownModel, noTokens]);
    expect(result.retryMessages).toEqual([]);
    expect(await costOf(logged.requestId)).toEqual({ cost: 0.25, source: "reported", version: null });
    expect(await costOf(unknownModel.requestId)).toEqual({ cost: null, source: null, version: null });
    expect(await costOf(noTokens.requestId)).toEqual({ cost: null, source: null, version: null });
  });
});
