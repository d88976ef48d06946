/**
 * Session-level scores in the scoring-jobs consumer (issue 33.2, docs/sessions.md): the worker
 * scores a batch of calls that carry `metadata.session_id`, then judges each session whole and
 * writes `session_scores`; a three-turn escalation is flagged for the session while no turn's
 * jailbreak_detection score is, a benign conversation stays safe, and with the guard-model tier
 * on (policy `judge: all`) a stand-in Workers AI binding (its recorded wire format, as in
 * judge.test.ts) reads the last turns together and decides the session's score.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_AI_POLICY_MODEL } from "../../workers/scorer/src/judge/backends";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { BENIGN, ESCALATION } from "../fixtures/sessions";
import { sql } from "../setup/sql";
import { consume, type Seeded } from "./batch";

const scorerEnv = env as unknown as ScorerEnv;

/** A fresh project (with `policy`, if given) and one queued call per user turn, one minute apart, in session `session`. */
async function seed(turns: string[], session: string, policy?: Record<string, unknown>): Promise<Seeded[]> {
  const [p] = await sql<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'session test') RETURNING id");
  if (policy) await sql("INSERT INTO project_policies (project_id, policy, version) VALUES ($1, $2, 1)", [p!.id, JSON.stringify(policy)]);
  const out: Seeded[] = [];
  for (const [i, text] of turns.entries()) {
    const [r] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, metadata, created_at, scoring_state, enqueued_at)
       VALUES (gen_random_uuid(), $1, 'gpt-4o-mini', 'openai', $2, NULL, $3, now() - make_interval(mins => $4), 'queued', now()) RETURNING id`,
      [p!.id, JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }] }), JSON.stringify({ session_id: session }), turns.length - i],
    );
    out.push({ id: r!.id, projectId: p!.id });
  }
  return out;
}

type SessionRow = { score_value: number; score_label: string; rationale: string; decided_by: string; turns: number };
const sessionRow = async (projectId: string, session: string) =>
  (
    await sql<SessionRow>("SELECT score_value, score_label, rationale, decided_by, turns FROM session_scores WHERE project_id = $1 AND session_id = $2", [
      projectId,
      session,
    ])
  )[0];
const jailbreakLabels = async (ids: string[]) =>
  (
    await sql<{ score_label: string }>(
      "SELECT score_label FROM safety_scores WHERE request_id = ANY($1::uuid[]) AND scorer_name = 'jailbreak_detection' AND superseded_at IS NULL",
      [ids],
    )
  ).map((r) => r.score_label);

describe("session-level jailbreak score in the consumer", () => {
  it("Should flag a three-turn escalation for the session while no turn alone is flagged", async () => {
    const reqs = await seed(ESCALATION, "conv-escalation");
    const result = await consume(reqs, scorerEnv);
    expect([...result.explicitAcks].sort()).toEqual(["j0", "j1", "j2"]);
    expect(await jailbreakLabels(reqs.map((r) => r.id))).toEqual(["safe", "safe", "safe"]);
    const row = await sessionRow(reqs[0]!.projectId, "conv-escalation");
    expect(row).toMatchObject({ score_label: "unsafe", decided_by: "local", turns: 3 });
    expect(row!.score_value).toBeGreaterThanOrEqual(4);
    expect(row!.rationale).toContain("framed_harmful_goal");
  });

  it("Should keep a benign conversation safe, judged again with each scored call", async () => {
    const reqs = await seed(BENIGN, "conv-benign");
    await consume(reqs.slice(0, 1), scorerEnv);
    expect(await sessionRow(reqs[0]!.projectId, "conv-benign")).toMatchObject({ score_label: "safe", turns: 3 });
    await sql("UPDATE session_scores SET rationale = 'stale' WHERE project_id = $1", [reqs[0]!.projectId]);
    await consume(reqs.slice(1), scorerEnv);
    const row = await sessionRow(reqs[0]!.projectId, "conv-benign");
    expect(row).toMatchObject({ score_label: "safe", decided_by: "local", turns: 3 });
    expect(row!.rationale).toBe("no multi-turn jailbreak pattern in 3 turns");
  });

  it("Should let the guard model judge the last turns together when the policy turns the tier on", async () => {
    const runs: { model: string; content: string }[] = [];
    const ai = {
      async run(model: string, inputs: { messages: { content: string }[] }) {
        runs.push({ model, content: inputs.messages.map((m) => m.content).join("\n") });
        return {
          response: { unsafe: true, reason: "role play building up to drug synthesis" },
          usage: { prompt_tokens: 200, completion_tokens: 10, total_tokens: 210 },
        };
      },
    };
    const reqs = await seed(BENIGN, "conv-judged", { judge: "all", judge_monthly_budget: 100 });
    await consume(reqs, { ...scorerEnv, AI: ai as unknown as Ai } as ScorerEnv);
    const joined = runs.find((r) => r.content.includes("Turn 1:") && r.content.includes("Turn 3:"));
    expect(joined?.model).toBe(DEFAULT_AI_POLICY_MODEL);
    expect(await sessionRow(reqs[0]!.projectId, "conv-judged")).toMatchObject({ score_label: "unsafe", decided_by: DEFAULT_AI_POLICY_MODEL, turns: 3 });
  });
});
