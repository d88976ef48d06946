import { env } from "cloudflare:test";
/**
 * Conversations (issue 33.2), in workerd against the real PostgreSQL: calls sharing
 * `metadata.session_id` are listed as sessions (paged envelope, most recently active first) and
 * read back as one conversation, oldest call first, with previews masked for API keys as in the
 * request list; an unknown session is 404 `{detail}`.
 */
import { describe, expect, it } from "vitest";
import { scoreSessions } from "../../workers/scorer/src/sessions";
import { BENIGN, ESCALATION } from "../fixtures/sessions";
import { api, expectProblem, internal, logBody, newProject, postLog } from "./helpers";
import { scoreStoredCalls, useDirectDb } from "./direct-db";

const direct = useDirectDb();

/** Scores stored calls as the scorer worker does: the six scorers, then their sessions judged whole. */
async function scoreNow(ids: string[]) {
  const calls = await scoreStoredCalls(direct.db, ids);
  await scoreSessions(direct.db, env.BODIES, undefined, calls);
}

type SessionPage = {
  items: { session_id: string; calls: number; unsafe_calls: number; first_call_at: string; last_call_at: string; session_score: unknown }[];
  total: number;
  page: number;
  page_size: number;
};
type Session = {
  session_id: string;
  calls: { id: string; preview: string | null; created_at: string; scores: { scorer_name: string; score_label: string }[] }[];
  truncated: boolean;
  session_scores: { scorer_name: string; score_label: string; score_value: number; decided_by: string; turns: number }[];
};

/** Logs one call with `text` as its user turn, in `session` (none: no session id), at `at`. */
async function log(key: string, session: string | undefined, text: string, at: string): Promise<string> {
  const body = logBody({
    created_at: at,
    request_body: { model: "gpt-4o-mini", messages: [{ role: "user", content: text }] },
    metadata: session === undefined ? { status: "success" } : { status: "success", session_id: session },
  });
  const res = await postLog(key, body);
  expect(res.status).toBe(202);
  return ((await res.json()) as { id: string }).id;
}

/** Yesterday (UTC), so the calls stay inside the free tier's retention, where the session reads start by default. */
const DAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

const get = (key: string, path: string) => api(path, { headers: { "X-Service-Key": key } });

describe("GET /api/sessions", () => {
  it("Should list sessions most recently active first, with call counts and the paged envelope", async () => {
    const { key } = await newProject();
    await log(key, "conv-a", "first question", `${DAY}T10:00:00.000Z`);
    await log(key, "conv-b", "other conversation", `${DAY}T10:05:00.000Z`);
    await log(key, "conv-a", "second question", `${DAY}T10:10:00.000Z`);
    await log(key, undefined, "no session", `${DAY}T10:20:00.000Z`);

    const res = await get(key, "/api/sessions");
    expect(res.status).toBe(200);
    const page = (await res.json()) as SessionPage;
    expect(page).toMatchObject({ total: 2, page: 1, page_size: 50 });
    expect(page.items.map((s) => [s.session_id, s.calls])).toEqual([
      ["conv-a", 2],
      ["conv-b", 1],
    ]);
    expect(page.items[0]).toMatchObject({
      first_call_at: `${DAY}T10:00:00.000Z`,
      last_call_at: `${DAY}T10:10:00.000Z`,
      unsafe_calls: 0,
      session_score: null,
    });

    const second = (await (await get(key, "/api/sessions?page=2&page_size=1")).json()) as SessionPage;
    expect(second).toMatchObject({ total: 2, page: 2, page_size: 1 });
    expect(second.items.map((s) => s.session_id)).toEqual(["conv-b"]);
    const beyond = (await (await get(key, "/api/sessions?page=9&page_size=1")).json()) as SessionPage;
    expect(beyond).toMatchObject({ items: [], total: 2 });
  });

  it("Should list nothing for a project without sessions, and refuse a bad page_size", async () => {
    const { key } = await newProject();
    await log(key, undefined, "no session", `${DAY}T10:00:00.000Z`);
    expect(await (await get(key, "/api/sessions")).json()).toEqual({ items: [], total: 0, page: 1, page_size: 50 });
    await expectProblem(await get(key, "/api/sessions?page_size=0"), 422, "page_size");
  });

  it("Should cover the calls the project's retention keeps by default, and the calls of start and end when asked", async () => {
    const { key } = await newProject();
    // Free tier: 30 days of retention. 40 days ago is past it (the sweep deletes such calls).
    const old = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await log(key, "long", "an old turn", old);
    await log(key, "long", "a new turn", `${DAY}T10:00:00.000Z`);
    await log(key, "forgotten", "only an old turn", old);
    const calls = async (path: string) => ((await (await get(key, path)).json()) as SessionPage).items.map((s) => [s.session_id, s.calls]);

    expect(await calls("/api/sessions")).toEqual([["long", 1]]);
    const since = encodeURIComponent(new Date(Date.now() - 60 * 86_400_000).toISOString());
    expect(await calls(`/api/sessions?start=${since}`)).toEqual([
      ["long", 2],
      ["forgotten", 1],
    ]);
    // Both sessions' last call in the range is the old one (ties: session id, descending).
    expect(await calls(`/api/sessions?start=${since}&end=${encodeURIComponent(`${DAY}T00:00:00.000Z`)}`)).toEqual([
      ["long", 1],
      ["forgotten", 1],
    ]);
    expect(((await (await get(key, "/api/sessions/long")).json()) as Session).calls).toHaveLength(1);
    expect(((await (await get(key, `/api/sessions/long?start=${since}`)).json()) as Session).calls).toHaveLength(2);
    await expectProblem(await get(key, "/api/sessions/forgotten"), 404, "session not found");
    await expectProblem(await get(key, `/api/sessions?start=${encodeURIComponent(`${DAY}T10:00:00Z`)}&end=${since}`), 422, "start");
  });
});

describe("GET /api/sessions/{session_id}", () => {
  it("Should return the session's calls oldest first with previews and score chips", async () => {
    const { key } = await newProject();
    const session = "user 42/chat #7";
    const first = await log(key, session, "Tell me about chemistry", `${DAY}T10:00:00.000Z`);
    const third = await log(key, session, "And the third turn", `${DAY}T10:02:00.000Z`);
    const second = await log(key, session, "What about labs?", `${DAY}T10:01:00.000Z`);
    await log(key, "someone else", "not this one", `${DAY}T10:01:30.000Z`);

    const res = await get(key, `/api/sessions/${encodeURIComponent(session)}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Session;
    expect(body.session_id).toBe(session);
    expect(body.truncated).toBe(false);
    expect(body.calls.map((c) => c.id)).toEqual([first, second, third]);
    expect(body.calls.map((c) => c.preview)).toEqual(["Tell me about chemistry", "What about labs?", "And the third turn"]);
    expect(body.calls[0]!.scores).toEqual([]); // not scored yet in this test
    expect(body.session_scores).toEqual([]);
  });

  it("Should mask personal data in previews unless an admin key asks reveal=true; a read-only key may not", async () => {
    const { key, projectId } = await newProject();
    await log(key, "conv-pii", "Write to jane.doe@example.com about it", `${DAY}T10:00:00.000Z`);
    const body = (await (await get(key, "/api/sessions/conv-pii")).json()) as Session;
    expect(body.calls[0]!.preview).toBe("Write to [EMAIL] about it");
    const revealed = (await (await get(key, "/api/sessions/conv-pii?reveal=true")).json()) as Session;
    expect(revealed.calls[0]!.preview).toBe("Write to jane.doe@example.com about it");
    const created = await api(`/internal/projects/${projectId}/keys`, { method: "POST", headers: internal, json: { name: "reader", scopes: ["read"] } });
    const reader = ((await created.json()) as { key: string }).key;
    expect(((await (await get(reader, "/api/sessions/conv-pii")).json()) as Session).calls[0]!.preview).toBe("Write to [EMAIL] about it");
    await expectProblem(await get(reader, "/api/sessions/conv-pii?reveal=true"), 403, "admin");
  });

  it("Should answer 404 {detail} for a session id no call carries, also in another project", async () => {
    const { key } = await newProject();
    const other = await newProject();
    await log(other.key, "theirs", "hello", `${DAY}T10:00:00.000Z`);
    await expectProblem(await get(key, "/api/sessions/theirs"), 404, "session not found");
    await expectProblem(await get(key, "/api/sessions/nope"), 404, "session not found");
  });
});

describe("Sessions once scored", () => {
  it("Should flag the three-turn escalation at the session level while no turn's jailbreak chip is unsafe, and keep the benign one safe", async () => {
    const { key } = await newProject();
    const ids: string[] = [];
    for (const [i, text] of ESCALATION.entries()) ids.push(await log(key, "story", text, `${DAY}T10:0${i}:00.000Z`));
    for (const [i, text] of BENIGN.entries()) ids.push(await log(key, "trip", text, `${DAY}T11:0${i}:00.000Z`));
    await scoreNow(ids);

    const story = (await (await get(key, "/api/sessions/story")).json()) as Session;
    expect(story.calls.map((c) => c.id)).toEqual(ids.slice(0, 3));
    for (const c of story.calls) expect(c.scores.find((s) => s.scorer_name === "jailbreak_detection")?.score_label).toBe("safe");
    expect(story.session_scores).toEqual([
      expect.objectContaining({ scorer_name: "jailbreak_detection", score_label: "unsafe", decided_by: "local", turns: 3 }),
    ]);

    const page = (await (await get(key, "/api/sessions")).json()) as SessionPage;
    const byId = Object.fromEntries(page.items.map((s) => [s.session_id, s]));
    expect(byId.story!.session_score).toMatchObject({ score_label: "unsafe", turns: 3 });
    expect(byId.trip!.session_score).toMatchObject({ score_label: "safe", turns: 3 });
    expect(byId.trip!.unsafe_calls).toBe(0);
  });
});
