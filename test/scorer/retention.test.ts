/**
 * Retention (docs/retention.md): requests older than their tier's period are deleted with their
 * scores and reviews, in batches, or a whole month at once by dropping its partitions; younger
 * ones stay, and the hourly rollups are untouched.
 */
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIER_RETENTION } from "../../src/billing/tiers";
import { createDb } from "../../src/db/driver/client";
import { applyRetention, dropExpiredPartitions } from "../../src/upkeep/retention";
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
       SELECT gen_random_uuid(), $1, $2, 'content_safety', 2, 'safe', 't', created_at FROM llm_requests WHERE id = $1 RETURNING id`,
      [r!.id, projectId],
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

  it("Should drop a month's partitions once the month is past the longest tier's retention, unless a project kept longer has calls in it", async () => {
    // Months of 1995 (no other test file writes there): January holds only calls of a free
    // project; February also one of an enterprise project, which keeps its calls.
    const months = ["1995-01-01", "1995-02-01"];
    for (const m of months) {
      for (const table of ["llm_requests", "safety_scores"]) await sql("SELECT sightline_create_month_partition($1, $2::timestamptz)", [table, m]);
    }
    const free = await projectWithCalls("free", []);
    const enterprise = await projectWithCalls("enterprise", []);
    const call = async (projectId: string, at: string) => {
      const [r] = await sql<{ id: string }>(
        `INSERT INTO llm_requests (id, project_id, model, provider, request_body, created_at, scoring_state)
         VALUES (gen_random_uuid(), $1, 'm', 'openai', '{"messages": []}', $2, 'scored') RETURNING id`,
        [projectId, at],
      );
      const [s] = await sql<{ id: string }>(
        `INSERT INTO safety_scores (id, request_id, project_id, scorer_name, score_value, score_label, rationale, created_at)
         VALUES (gen_random_uuid(), $1, $2, 'content_safety', 2, 'safe', 't', $3) RETURNING id`,
        [r!.id, projectId, at],
      );
      await sql(
        `INSERT INTO score_reviews (score_id, request_id, project_id, scorer_name, verdict, reviewer, score_value, score_label, scorer_version, policy_version)
         VALUES ($1, $2, $3, 'content_safety', 'confirmed', 't', 2, 'safe', 'unversioned', 0)`,
        [s!.id, r!.id, projectId],
      );
      return r!.id;
    };
    const january = await call(free.projectId, "1995-01-15T00:00:00Z");
    const february = await call(free.projectId, "1995-02-15T00:00:00Z");
    const kept = await call(enterprise.projectId, "1995-02-16T00:00:00Z");
    const handle = createDb(scorerConfig(env as unknown as ScorerEnv).db);
    try {
      expect(await dropExpiredPartitions(handle.db, DEFAULT_TIER_RETENTION, new Date("1996-01-01T00:00:00Z"))).toEqual(["llm_requests_y1995m01"]);
    } finally {
      await handle.close();
    }
    const tables = await sql<{ name: string | null }>("SELECT to_regclass(n)::text AS name FROM unnest($1::text[]) WITH ORDINALITY AS t(n, i) ORDER BY i", [
      ["llm_requests_y1995m01", "safety_scores_y1995m01", "llm_requests_y1995m02", "safety_scores_y1995m02"],
    ]);
    expect(tables.map((t) => t.name)).toEqual([null, null, "llm_requests_y1995m02", "safety_scores_y1995m02"]);
    const left = await sql<{ id: string }>("SELECT request_id AS id FROM score_reviews WHERE request_id = ANY($1::uuid[]) ORDER BY request_id", [
      [january, february, kept],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([february, kept].sort());
    // The batched deletion takes the free project's February call.
    const handle2 = createDb(scorerConfig(env as unknown as ScorerEnv).db);
    try {
      expect(await applyRetention(handle2.db, DEFAULT_TIER_RETENTION, { projectIds: [free.projectId, enterprise.projectId] })).toBe(1);
    } finally {
      await handle2.close();
    }
    const [rest] = await sql<{ calls: number; scores: number; reviews: number }>(
      `SELECT (SELECT count(*) FROM llm_requests WHERE project_id = ANY($1::uuid[]))::int AS calls,
              (SELECT count(*) FROM safety_scores WHERE project_id = ANY($1::uuid[]))::int AS scores,
              (SELECT count(*) FROM score_reviews WHERE project_id = ANY($1::uuid[]))::int AS reviews`,
      [[free.projectId, enterprise.projectId]],
    );
    expect(rest).toEqual({ calls: 1, scores: 1, reviews: 1 });
  });
});
