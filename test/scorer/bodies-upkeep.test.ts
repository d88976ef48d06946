/**
 * Upkeep of the body objects (src/upkeep/bodies.ts, docs/capture.md "Bodies in R2"): bodies stored
 * inline before bodies went to R2 are moved in bounded runs, byte for byte; retention removes
 * the objects once their calls are gone, and so do a deleted project and a batch that stored nothing.
 */
import { env } from "cloudflare:test";
import { uuidv7 } from "uuidv7";
import { describe, expect, it } from "vitest";
import { DEFAULT_TIER_RETENTION } from "../../src/billing/tiers";
import { bodyText } from "../../src/bodies/write";
import type { StoredBodies } from "../../src/bodies/columns";
import { readBodies } from "../../src/bodies/read";
import { createDb } from "../../src/db/driver/client";
import { deleteProject } from "../../src/db/projects";
import { deleteUnusedBodies, moveBodiesToR2 } from "../../src/upkeep/bodies";
import { applyRetention } from "../../src/upkeep/retention";
import type { ScorerEnv } from "../../workers/scorer/src/env";
import { scorerConfig } from "../../workers/scorer/src/config";
import { sql } from "../setup/sql";

const config = () => scorerConfig(env as unknown as ScorerEnv);
const BODY_COLUMNS = "request_body, response_body, body_key, request_body_offset, request_body_length, response_body_offset, response_body_length";

/** A request body over the inline size. */
const large = (tag: string) => ({ model: "m", messages: [{ role: "user", content: `${tag} ${"lorem ipsum ".repeat(150)}` }] });

/** A free project with one inline call per entry (`ageDays`, body), written as rows were before bodies went to R2. */
async function projectWithInlineCalls(calls: { ageDays: number; body: unknown }[]) {
  const [p] = await sql<{ id: string }>("INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'bodies') RETURNING id");
  const projectId = p!.id;
  await sql(
    "INSERT INTO subscriptions (project_id, tier, period_start_at, period_reset_at) VALUES ($1, 'free', date_trunc('month', now()), date_trunc('month', now()) + interval '1 month')",
    [projectId],
  );
  const ids: string[] = [];
  for (const c of calls) {
    const [r] = await sql<{ id: string }>(
      `INSERT INTO llm_requests (id, project_id, model, provider, request_body, response_body, created_at, scoring_state)
       VALUES ($4, $1, 'm', 'openai', $2, '{"choices": []}', now() - make_interval(days => $3), 'scored') RETURNING id`,
      [projectId, JSON.stringify(c.body), c.ageDays, uuidv7()],
    );
    ids.push(r!.id);
  }
  return { projectId, ids };
}

const rowsOf = (projectId: string) =>
  sql<StoredBodies & { id: string; preview: string | null }>(`SELECT id, preview, ${BODY_COLUMNS} FROM llm_requests WHERE project_id = $1 ORDER BY id`, [
    projectId,
  ]);
const objectsOf = async (projectId: string) => (await env.BODIES.list({ prefix: `${projectId}/` })).objects.map((o) => o.key).sort();
const trackedOf = async (projectId: string) =>
  (await sql<{ key: string }>("SELECT key FROM body_objects WHERE project_id = $1 ORDER BY key", [projectId])).map((r) => r.key);

/** Runs the move over `projectId`'s calls until it has walked them all (several runs of `rows`). */
async function moveAll(projectId: string, rows: number, chunk: number) {
  const handle = createDb(config().db);
  try {
    while ((await moveBodiesToR2(handle.db, env.BODIES, { projectIds: [projectId], moveRows: rows, moveChunk: chunk })) > 0);
  } finally {
    await handle.close();
  }
}

describe("moving inline bodies to R2", () => {
  it("Should move large inline bodies in bounded runs, byte for byte, and leave small ones inline", async () => {
    const bodies = [large("a"), { model: "m", messages: [{ role: "user", content: "short" }] }, large("b"), large("c")];
    const { projectId, ids } = await projectWithInlineCalls(bodies.map((body) => ({ ageDays: 1, body })));
    const before = await rowsOf(projectId);
    const inlineTexts = before.map((r) => bodyText(r.request_body));
    await moveAll(projectId, 2, 2);
    const after = await rowsOf(projectId);
    expect(after.map((r) => r.body_key === null)).toEqual([false, true, false, false]);
    expect(after.map((r) => r.request_body === null)).toEqual([true, false, true, true]);
    // The preview was kept, the bodies read back as they were.
    expect(after.map((r) => r.preview)).toEqual(before.map((r) => r.preview));
    const read = await readBodies(env.BODIES, after);
    expect(read.map((r) => bodyText(r.request_body))).toEqual(inlineTexts);
    expect(read.map((r) => r.id)).toEqual(ids.slice().sort());
    // Every object written is tracked, and every moved call points to one of them.
    expect(await trackedOf(projectId)).toEqual(await objectsOf(projectId));
    expect(after.flatMap((r) => (r.body_key ? [r.body_key] : [])).every((k) => k.startsWith(`${projectId}/`))).toBe(true);
    // A second pass finds nothing to move and writes nothing.
    const objects = await objectsOf(projectId);
    await moveAll(projectId, 10, 5);
    expect(await objectsOf(projectId)).toEqual(objects);
  });
});

describe("deleting body objects", () => {
  it("Should delete an object once retention has deleted its calls, and keep one whose calls are kept", async () => {
    const { projectId } = await projectWithInlineCalls([
      { ageDays: 40, body: large("old") },
      { ageDays: 1, body: large("young") },
    ]);
    // Chunks of one call: the old and the young call get objects of their own.
    await moveAll(projectId, 1, 1);
    const [oldRow, youngRow] = await rowsOf(projectId);
    expect(oldRow!.body_key).not.toBe(youngRow!.body_key);
    const handle = createDb(config().db);
    try {
      // Before retention runs, the old object still has its call: kept.
      await deleteUnusedBodies(handle.db, env.BODIES, DEFAULT_TIER_RETENTION, { projectIds: [projectId] });
      expect(await objectsOf(projectId)).toHaveLength(2);
      expect(await applyRetention(handle.db, DEFAULT_TIER_RETENTION, { projectIds: [projectId] })).toBe(1);
      await deleteUnusedBodies(handle.db, env.BODIES, DEFAULT_TIER_RETENTION, { projectIds: [projectId] });
      expect(await objectsOf(projectId)).toEqual([youngRow!.body_key]);
      expect(await trackedOf(projectId)).toEqual([youngRow!.body_key]);
      expect((await readBodies(env.BODIES, await rowsOf(projectId)))[0]!.request_body).toEqual(large("young"));
    } finally {
      await handle.close();
    }
  });

  it("Should delete a deleted project's objects, and an object no call ever pointed to, after the grace period", async () => {
    const { projectId } = await projectWithInlineCalls([{ ageDays: 1, body: large("x") }]);
    await moveAll(projectId, 10, 10);
    const stray = `${projectId}/stray`;
    await env.BODIES.put(stray, "never referenced");
    await sql("INSERT INTO body_objects (key, project_id, created_at) VALUES ($1, $2, now() - interval '2 hours')", [stray, projectId]);
    const handle = createDb(config().db);
    try {
      await deleteUnusedBodies(handle.db, env.BODIES, DEFAULT_TIER_RETENTION, { projectIds: [projectId] });
      expect(await objectsOf(projectId)).toHaveLength(1);
      expect(await deleteProject(handle.db, projectId)).toBe("deleted");
      // Within the grace period an unreferenced object is kept (a batch may be about to point to it).
      await deleteUnusedBodies(handle.db, env.BODIES, DEFAULT_TIER_RETENTION, { projectIds: [projectId] });
      expect(await objectsOf(projectId)).toHaveLength(1);
      await sql("UPDATE body_objects SET created_at = now() - interval '2 hours' WHERE project_id = $1", [projectId]);
      await deleteUnusedBodies(handle.db, env.BODIES, DEFAULT_TIER_RETENTION, { projectIds: [projectId] });
      expect(await objectsOf(projectId)).toEqual([]);
      expect(await trackedOf(projectId)).toEqual([]);
    } finally {
      await handle.close();
    }
  });
});
