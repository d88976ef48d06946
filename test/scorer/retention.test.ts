/**
 * Retention (docs/retention.md): requests older than their tier's period are deleted with their
 * scores and reviews, in batches; younger ones stay, and the hourly rollups are untouched.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIER_RETENTION } from "../../src/billing/tiers";
import { createDb } from "../../src/db/driver/client";
import { applyRetention } from "../../src/upkeep/retention";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { sql } from "../setup/sql";
import { scorerConfig } from "../../workers/scorer/src/config";

/** A project on `tier` with one call (and one score) at each age in hours. */
async function projectWithCalls(tier: string, ageHours: number[]) {
  const [p] = await sql<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'retention') RETURNING id");
  const projectId = p!.id;
  await sql(
    "INSERT INTO subscriptions (project_id, tier, period_start_at, period_reset_at) VALUES ($1, $2, date_trunc('month', now()), date_trunc('month', now()) + interval '1 month')",
    [projectId, tier],
  );
  const ids: Record<number, string> = {};
  for (const h of ageHours) {
    const [r] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state)
       VALUES (gen_random_uuid(), $1, 'm', 'openai', '{"messages": []}', now() - make_interval(hours => $2), 'scored') RETURNING id`,
      [projectId, h],
    );
    ids[h] = r!.id;
    const [s] = await sql<{ id: string }>(
      `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
       VALUES (gen_random_uuid(), $1, $2, 'content_safety', 2, 'safe', 't', now() - make_interval(hours => $3)) RETURNING id`,
      [r!.id, projectId, h],
    );
    await sql(
      `INSERT INTO score_reviews (score_id, request_id, project_id, scorer_name, verdict, reviewer, score_value, score_label, scorer_version, policy_version)
       VALUES ($1, $2, $3, 'content_safety', 'confirmed', 't', 2, 'safe', 'unversioned', 0)`,
      [s!.id, r!.id, projectId],
    );
  }
  // Rollups as ingest and scoring keep them.
  await sql(
    `INSERT INTO request_rollups (project_id, hour, requests, errors, cost_usd, prompt_tokens, completion_tokens, latency_ms_sum, latency_hist)
     SELECT project_id, date_trunc('hour', created_at, 'UTC'), count(*), 0, 0, 0, 0, 0, array_fill(0, ARRAY[160]) FROM llm_requests WHERE project_id = $1 GROUP BY 1, 2`,
    [projectId],
  );
  await sql(
    `INSERT INTO score_rollups (project_id, hour, scorer_name, scores, unsafe, unscored, value_1, value_2, value_3, value_4, value_5)
     SELECT project_id, date_trunc('hour', created_at, 'UTC'), scorer_name, count(*), 0, 0, 0, count(*), 0, 0, 0 FROM safety_scores WHERE project_id = $1 GROUP BY 1, 2, 3`,
    [projectId],
  );
  return { projectId, ids };
}

const rollups = (projectId: string) =>
  Promise.all([
    sql("SELECT hour, requests FROM request_rollups WHERE project_id = $1 ORDER BY hour", [projectId]),
    sql("SELECT hour, scorer_name, scores FROM score_rollups WHERE project_id = $1 ORDER BY hour", [projectId]),
  ]);

describe("Retention", () => {
  it("Should delete exactly the calls older than the tier's period, with their scores, in batches, and keep the rollups", async () => {
    const day = 24;
    const free = await projectWithCalls("free", [1, 30 * day - 1, 30 * day + 1, 45 * day]);
    const pro = await projectWithCalls("pro", [31 * day, 364 * day, 366 * day]);
    const before = await Promise.all([rollups(free.projectId), rollups(pro.projectId)]);
    const handle = createDb(scorerConfig(env as unknown as ScorerEnv).db);
    try {
      // Batches of one: three deletions take three statements (and a fourth that finds nothing).
      const deleted = await applyRetention(handle.db, DEFAULT_TIER_RETENTION, { batchSize: 1, projectIds: [free.projectId, pro.projectId] });
      expect(deleted).toBe(3);
      expect(await applyRetention(handle.db, DEFAULT_TIER_RETENTION, { projectIds: [free.projectId, pro.projectId] })).toBe(0);
    } finally {
      await handle.close();
    }
    const kept = async (projectId: string) =>
      (await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at DESC", [projectId])).map((r) => r.id);
    expect(await kept(free.projectId)).toEqual([free.ids[1], free.ids[30 * day - 1]]);
    expect(await kept(pro.projectId)).toEqual([pro.ids[31 * day], pro.ids[364 * day]]);
    const gone = [free.ids[30 * day + 1], free.ids[45 * day], pro.ids[366 * day]];
    const [orphans] = await sql<{ scores: number; reviews: number }>(
      "SELECT (SELECT count(*) FROM safety_scores WHERE request_id = ANY($1::uuid[]))::int AS scores, (SELECT count(*) FROM score_reviews WHERE request_id = ANY($1::uuid[]))::int AS reviews",
      [gone],
    );
    expect(orphans).toEqual({ scores: 0, reviews: 0 });
    expect(await Promise.all([rollups(free.projectId), rollups(pro.projectId)])).toEqual(before);
  });

  it("Should delete a session's score once retention has deleted all of its calls, and keep it while one remains", async () => {
    const day = 24;
    const p = await projectWithCalls("free", [1, 31 * day, 32 * day]);
    const inSession = (id: string, session: string) =>
      sql(`UPDATE llm_requests SET metadata = jsonb_build_object('session_id', $2::text) WHERE id = $1`, [id, session]);
    // "old": one call, past the free tier's 30 days; "live": one call past them, one recent.
    await inSession(p.ids[32 * day]!, "old");
    await inSession(p.ids[31 * day]!, "live");
    await inSession(p.ids[1]!, "live");
    for (const session of ["old", "live"]) {
      await sql(
        `INSERT INTO session_scores (project_id, session_id, scorer_name, score_value, score_label, rationale, decided_by, turns)
         VALUES ($1, $2, 'jailbreak_detection', 4, 'unsafe', 't', 'local', 2)`,
        [p.projectId, session],
      );
    }
    const handle = createDb(scorerConfig(env as unknown as ScorerEnv).db);
    try {
      expect(await applyRetention(handle.db, DEFAULT_TIER_RETENTION, { projectIds: [p.projectId] })).toBe(2);
    } finally {
      await handle.close();
    }
    const left = await sql<{ session_id: string }>("SELECT session_id FROM session_scores WHERE project_id = $1 ORDER BY session_id", [p.projectId]);
    expect(left.map((r) => r.session_id)).toEqual(["live"]);
  });

  it("Should apply the longer of the tier's and a running grace tier's retention, and only the tier's once the grace has ended", async () => {
    const day = 24;
    const underPro = await projectWithCalls("free", [1, 45 * day, 400 * day]);
    const underEnterprise = await projectWithCalls("free", [1, 45 * day, 400 * day]);
    const ended = await projectWithCalls("free", [1, 45 * day]);
    const grace = (projectId: string, tier: string, until: string) =>
      sql(`UPDATE subscriptions SET retention_tier = $2, retention_grace_until = now() + $3::interval WHERE project_id = $1`, [projectId, tier, until]);
    await grace(underPro.projectId, "pro", "29 days");
    await grace(underEnterprise.projectId, "enterprise", "1 day");
    await grace(ended.projectId, "team", "-1 second");
    const handle = createDb(scorerConfig(env as unknown as ScorerEnv).db);
    try {
      expect(await applyRetention(handle.db, DEFAULT_TIER_RETENTION, { projectIds: [underPro.projectId, underEnterprise.projectId, ended.projectId] })).toBe(2);
    } finally {
      await handle.close();
    }
    const kept = async (projectId: string) =>
      (await sql<{ id: string }>("SELECT id FROM llm_requests WHERE project_id = $1 ORDER BY created_at DESC", [projectId])).map((r) => r.id);
    expect(await kept(underPro.projectId)).toEqual([underPro.ids[1], underPro.ids[45 * day]]);
    expect(await kept(underEnterprise.projectId)).toEqual([underEnterprise.ids[1], underEnterprise.ids[45 * day], underEnterprise.ids[400 * day]]);
    expect(await kept(ended.projectId)).toEqual([ended.ids[1]]);
  });
});
