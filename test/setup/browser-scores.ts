/**
 * Scores for the browser tests, written as the scorer worker writes them: the browser stack
 * runs without the scorer (its queue consumer), so a test that needs scored calls runs the real
 * scorers (`scoreCall`, src/scoring) on the stored rows, or gives fixed scores, and stores them
 * with the scorer's own `saveScores` (src/db/request-scoring.ts: scores, hourly rollups and the
 * request's `scoring_state` in one statement), labelled and versioned as the scorer does for a
 * project that never set a policy (`scoreCall` with the default policy, version 0).
 */
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import type { Db } from "../../src/db/driver/client";
import { callScores, loadCalls, saveScores } from "../../src/db/request-scoring";
import { scoreSessions } from "../../workers/scorer/src/sessions";
import { LOCAL_DECIDER, SCORER_NAMES, type ScorerName } from "../../src/enums";
import { labelAt, type PolicyScore, scoreCall } from "../../src/policy/apply";
import { DEFAULT_UNSAFE_AT } from "../../src/policy/schema";
import type { NamedScore } from "../../src/scoring/registry";
import { SCORER_VERSIONS } from "../../src/scoring/version";

/** `scores` as the scorer stores them for a project without a policy of its own (`decided_by` local unless given). */
const versioned = (scores: (NamedScore & { decided_by?: string })[]): PolicyScore[] =>
  scores.map((s) => ({
    ...s,
    score_label: labelAt(s.score_value, DEFAULT_UNSAFE_AT),
    scorer_version: SCORER_VERSIONS[s.scorer_name],
    unsafe_at: DEFAULT_UNSAFE_AT,
    policy_version: 0,
    decided_by: s.decided_by ?? LOCAL_DECIDER,
  }));

async function withDb<T>(databaseUrl: string, run: (client: pg.Client, db: Db) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await run(client, drizzle(client) as unknown as Db);
  } finally {
    await client.end();
  }
}

/** Runs the six real scorers on the stored requests `ids` and saves their scores, then judges their sessions as the scorer worker does (no guard model). */
export async function scoreWithTheScorers(databaseUrl: string, ids: string[]): Promise<void> {
  await withDb(databaseUrl, async (client, db) => {
    const rows = (
      await client.query(
        `SELECT id, project_id, created_at::text AS created_at, model, provider, prompt_tokens, completion_tokens, cost_usd, latency_ms, request_body, response_body, metadata
           FROM llm_requests WHERE id = ANY($1::uuid[])`,
        [ids],
      )
    ).rows as ({ id: string; project_id: string; created_at: string } & Parameters<typeof scoreCall>[0])[];
    await saveScores(
      db,
      rows.map((r) => callScores(r, scoreCall({ ...r, cost_usd: r.cost_usd === null ? null : Number(r.cost_usd) }))),
    );
    await scoreSessions(
      db,
      null,
      undefined,
      await loadCalls(
        db,
        null,
        ids.map((id) => ({ id })),
      ),
    );
  });
}

/** Saves the given scores of one request (e.g. an unsafe verdict a test needs to review, or one a guard model decided). */
export async function saveFixedScores(
  databaseUrl: string,
  requestId: string,
  projectId: string,
  scores: (NamedScore & { decided_by?: string })[],
): Promise<void> {
  await withDb(databaseUrl, async (client, db) => {
    // Scores carry their request's created_at (their partition key, src/db/schema/scores.ts).
    const { rows } = await client.query<{ created_at: string }>("SELECT created_at::text AS created_at FROM llm_requests WHERE id = $1", [requestId]);
    await saveScores(db, [callScores({ id: requestId, project_id: projectId, created_at: rows[0]!.created_at }, versioned(scores))]);
  });
}

/** Scores of every scorer: `scorer` unsafe with `value`, the others a safe 1 (a verdict for a test to review). */
export function flaggedBy(scorer: ScorerName, value: number, rationale: string, decidedBy?: string): (NamedScore & { decided_by?: string })[] {
  return SCORER_NAMES.map((n) =>
    n === scorer
      ? { scorer_name: n, score_value: value as NamedScore["score_value"], score_label: "unsafe", rationale, ...(decidedBy ? { decided_by: decidedBy } : {}) }
      : { scorer_name: n, score_value: 1, score_label: "safe", rationale: "browser test" },
  );
}
