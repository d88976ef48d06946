/**
 * Dates the API accepts (issue 32, point 6): every instant goes through one schema
 * (src/instant.ts), bounded to the years 1970-9999 (422 `{"detail": "<field>: ..."}` otherwise),
 * and is read back exactly. Year 0 used to answer 500 (SQLSTATE 22008) and years 1-99 read
 * back as 19xx (JavaScript's two-digit years).
 */
import { describe, expect, it } from "vitest";
import { api, logBody, newProject, postLog, sql } from "./helpers";

const rescore = (key: string, json: unknown) => api("/api/rescore", { method: "POST", headers: { "X-Service-Key": key }, json });
const get = (key: string, path: string) => api(path, { headers: { "X-Service-Key": key } });

/** Instants out of bounds, with the reason the test gives them. */
const OUT_OF_BOUNDS: [string, string][] = [
  ["0000-06-01T00:00:00Z", "year 0 (no such year in PostgreSQL)"],
  ["0099-06-01T00:00:00Z", "year 99 (read back as 1999 by two-digit year rules)"],
  ["1969-12-31T23:59:59Z", "before 1970"],
  ["1970-01-01T00:30:00+01:00", "1969 in UTC"],
  ["10000-01-01T00:00:00Z", "year 10000"],
  ["+010000-01-01T00:00:00Z", "extended year 10000"],
  ["9999-12-31T23:30:00-01:00", "year 10000 in UTC"],
];

async function detailOf(res: Response): Promise<string> {
  expect(res.status).toBe(422);
  return ((await res.json()) as { detail: string }).detail;
}

describe("Instants in the API", () => {
  it.each(OUT_OF_BOUNDS)("Should refuse a re-score range starting at %s with 422 naming since (%s)", async (since) => {
    const { key } = await newProject();
    expect(await detailOf(await rescore(key, { since, until: "2026-01-01T00:00:00Z" }))).toMatch(/^since: /);
  });

  it("Should accept a range ending 9999-12-31 and read it back exactly, from the answer and the stored row", async () => {
    const { key, projectId } = await newProject();
    const body = { since: "9999-12-30T00:00:00Z", until: "9999-12-31T23:59:59.999Z" };
    const res = await rescore(key, body);
    expect(res.status).toBe(202);
    const job = (await res.json()) as { id: string; since: string; until: string };
    expect([job.since, job.until]).toEqual(["9999-12-30T00:00:00.000Z", "9999-12-31T23:59:59.999Z"]);
    const read = (await (await get(key, `/api/rescore/${job.id}`)).json()) as { since: string; until: string };
    expect([read.since, read.until]).toEqual([job.since, job.until]);
    const [row] = await sql<{ since: string; until: string }>(
      "SELECT to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS since, to_char(until AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS') AS until FROM rescore_jobs WHERE project_id = $1",
      [projectId],
    );
    expect(row).toEqual({ since: "9999-12-30 00:00:00.000", until: "9999-12-31 23:59:59.999" });
  });

  it("Should read back a stored 2026-06-01T00:00:00Z as the same instant, and the first instant of 1970", async () => {
    const { key } = await newProject();
    const job = (await (await rescore(key, { since: "2026-06-01T00:00:00Z", until: "2026-06-02T00:00:00+02:00" })).json()) as { since: string; until: string };
    expect([job.since, job.until]).toEqual(["2026-06-01T00:00:00.000Z", "2026-06-01T22:00:00.000Z"]);
    const edge = (await (await rescore(key, { since: "1970-01-01T00:00:00Z", until: "1970-01-02T00:00:00Z" })).json()) as { since: string };
    expect(edge.since).toBe("1970-01-01T00:00:00.000Z");
  });

  it("Should refuse out-of-bounds until with 422 naming until", async () => {
    const { key } = await newProject();
    expect(await detailOf(await rescore(key, { since: "9999-12-30T00:00:00Z", until: "10000-01-01T00:00:00Z" }))).toMatch(/^until: /);
  });

  it.each([
    ["/api/requests?start=", "start"],
    ["/api/requests?end=", "end"],
    ["/api/requests/export?start=", "start"],
    ["/api/safety-scores?start=", "start"],
    ["/api/safety-scores/summary?end=", "end"],
    ["/api/stats/timeseries?end=2026-01-01T00:00:00Z&start=", "start"],
  ])("Should refuse year 0 and year 99 in %s... with 422 naming %s", async (path, field) => {
    const { key } = await newProject();
    for (const [instant] of [OUT_OF_BOUNDS[0]!, OUT_OF_BOUNDS[1]!]) {
      expect(await detailOf(await get(key, `${path}${encodeURIComponent(instant)}`))).toMatch(new RegExp(`^${field}: `));
    }
  });

  it("Should refuse a logged call's created_at in year 0 or 99 with 422, and store 2026-06-01T00:00:00Z exactly", async () => {
    const { key } = await newProject();
    for (const [created_at] of [OUT_OF_BOUNDS[0]!, OUT_OF_BOUNDS[1]!]) {
      expect(await detailOf(await postLog(key, logBody({ created_at })))).toMatch(/^created_at: /);
    }
    const res = await postLog(key, logBody({ created_at: "2026-06-01T00:00:00Z" }));
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    const [row] = await sql<{ created_at: string }>(
      "SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') AS created_at FROM llm_requests WHERE id = $1",
      [id],
    );
    expect(row!.created_at).toBe("2026-06-01 00:00:00.000000");
  });
});
