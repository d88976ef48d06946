/** POST /internal/sweep: the sweep `npm run dev` calls every minute (cron never fires locally). */
import { describe, expect, it } from "vitest";
import { api, internal, newProject, postLog, sql, expectProblem } from "./helpers";

// The sweep claims the oldest stale requests first, SWEEP_LIMIT at a time, across all projects; in
// the whole suite other files leave thousands of unscored rows in the same database, so the rows
// these tests sweep are dated oldest (their projects' rollups are not read here).
const OLDEST = "2001-01-01T00:00:00Z";

describe("POST /internal/sweep", () => {
  it("Should re-enqueue a request left unscored and leave a fresh one alone", async () => {
    const { key } = await newProject();
    const stale = (await (await postLog(key)).json()) as { id: string };
    const fresh = (await (await postLog(key)).json()) as { id: string };
    await sql("UPDATE llm_requests SET scoring_state = 'pending', enqueued_at = NULL, created_at = $2 WHERE id = $1", [stale.id, OLDEST]);
    const res = await api("/internal/sweep", { method: "POST", headers: internal });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { enqueued: number }).enqueued).toBeGreaterThanOrEqual(1);
    const rows = await sql<{ id: string; scoring_state: string; enqueued_at: Date | null }>(
      "SELECT id, scoring_state, enqueued_at FROM llm_requests WHERE id = ANY($1)",
      [[stale.id, fresh.id]],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(stale.id)).toMatchObject({ scoring_state: "queued", enqueued_at: expect.any(Date) });
  });

  it("Should take older_than_seconds from the query and refuse a bad one", async () => {
    const { key } = await newProject();
    const { id } = (await (await postLog(key)).json()) as { id: string };
    await sql("UPDATE llm_requests SET enqueued_at = now() - interval '30 seconds', created_at = $2 WHERE id = $1", [id, OLDEST]);
    expect((await api("/internal/sweep?older_than_seconds=20", { method: "POST", headers: internal })).status).toBe(200);
    const [row] = await sql<{ enqueued_at: Date }>("SELECT enqueued_at FROM llm_requests WHERE id = $1", [id]);
    expect(Date.now() - row!.enqueued_at.getTime()).toBeLessThan(20_000);
    const bad = await api("/internal/sweep?older_than_seconds=-1", { method: "POST", headers: internal });
    await expectProblem(bad, 422, "older_than_seconds");
  });

  it("Should refuse callers without the internal secret, API keys included", async () => {
    const { key } = await newProject();
    expect((await api("/internal/sweep", { method: "POST" })).status).toBe(401);
    expect((await api("/internal/sweep", { method: "POST", headers: { "X-Service-Key": key } })).status).toBe(401);
  });
});
