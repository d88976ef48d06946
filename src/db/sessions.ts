/**
 * Reads and writes of conversations (docs/sessions.md): a session is the set of a project's
 * calls whose `metadata.session_id` is the same text. Lists and a session's calls are served by
 * the partial index `llm_requests_project_session_created_idx` on
 * `(project_id, (metadata ->> 'session_id'), created_at) WHERE metadata ? 'session_id'`;
 * `session_scores` has one owner, the scorer worker (`saveSessionScore`).
 */
import { and, asc, eq, sql } from "drizzle-orm";
import type { ScoreLabel, SESSION_SCORERS } from "../enums";
import type { Db } from "./driver/client";
import type { PageParams, TimeRange } from "./paging";
import { scoreOfRequest, timeCondition, timeConditions } from "./request-time";
import { requestSummaryColumns, scoreChips } from "./requests";
import { llmRequests, MAX_SESSION_CALLS, safetyScores, sessionScores } from "./schema";
import { storedBodyColumns } from "../bodies/columns";
import { readBodies } from "../bodies/read";
import type { BodyBucket } from "../bodies/bucket";

/** The session's id as stored: `metadata ->> 'session_id'`, the indexed expression. */
const sessionIdOf = sql`(${llmRequests.metadata} ->> 'session_id')`;

/** The calls of `sessionId` in `projectId` (inside `range`), in the words of the partial index (so it is used). */
const inSession = (projectId: string, sessionId: string, range: TimeRange = {}) =>
  and(
    eq(llmRequests.project_id, projectId),
    sql`${llmRequests.metadata} ? 'session_id'`,
    sql`${sessionIdOf} = ${sessionId}`,
    ...timeConditions(llmRequests.created_at, range),
  );

/** One scorer's verdict on a whole session (`session_scores`). */
export interface SessionScore {
  scorer_name: (typeof SESSION_SCORERS)[number];
  score_value: number;
  score_label: ScoreLabel;
  rationale: string;
  decided_by: string;
  turns: number;
  updated_at: Date;
}

/** One row of the session list. */
export interface SessionSummary {
  session_id: string;
  first_call_at: Date;
  last_call_at: Date;
  calls: number;
  /** Calls of the session with at least one current `unsafe` score. */
  unsafe_calls: number;
  /** The session-level jailbreak score, when the scorer has judged the session. */
  session_score: SessionScore | null;
}

type SummaryRow = Omit<SessionSummary, "session_score" | "first_call_at" | "last_call_at"> & {
  first_call_at: string | Date;
  last_call_at: string | Date;
  total: number;
  s_value: number | null;
  s_label: ScoreLabel | null;
  s_rationale: string | null;
  s_decided_by: string | null;
  s_turns: number | null;
  s_updated_at: string | Date | null;
};

const asDate = (v: string | Date) => (v instanceof Date ? v : new Date(v));

/**
 * One page of a project's sessions, most recently active first (`last_call_at DESC`, then
 * `session_id`), with the total number of sessions, from one statement: the sessions are grouped
 * once (an index-only walk of the partial index), paged, and only the page's rows are joined to
 * their unsafe counts and session scores. Only the calls inside `range` count (first and last
 * call, calls, unsafe calls): the statement reads only its months. Returns `{ items, total }`.
 */
export async function listSessions(db: Db, projectId: string, range: TimeRange, page: PageParams): Promise<{ items: SessionSummary[]; total: number }> {
  const offset = (page.page - 1) * page.page_size;
  const inRange = timeCondition(sql`r.created_at`, range);
  const result = (await db.execute(sql`
    WITH sessions AS (
      SELECT r.metadata ->> 'session_id' AS session_id, min(r.created_at) AS first_call_at, max(r.created_at) AS last_call_at, count(*)::int AS calls
      FROM llm_requests r
      WHERE r.project_id = ${projectId} AND r.metadata ? 'session_id' AND ${inRange}
      GROUP BY 1
    ),
    counted AS (SELECT count(*)::int AS total FROM sessions),
    page AS (SELECT * FROM sessions ORDER BY last_call_at DESC, session_id DESC LIMIT ${page.page_size} OFFSET ${offset})
    SELECT counted.total, p.session_id, p.first_call_at, p.last_call_at, p.calls,
      (SELECT count(*)::int FROM llm_requests r
        WHERE r.project_id = ${projectId} AND r.metadata ? 'session_id' AND (r.metadata ->> 'session_id') = p.session_id AND ${inRange}
          AND EXISTS (SELECT 1 FROM safety_scores s WHERE s.request_id = r.id AND s.created_at = r.created_at AND s.superseded_at IS NULL
            AND ${timeCondition(sql`s.created_at`, range)}
            AND s.score_label = 'unsafe')) AS unsafe_calls,
      ss.score_value AS s_value, ss.score_label AS s_label, ss.rationale AS s_rationale, ss.decided_by AS s_decided_by,
      ss.turns AS s_turns, ss.updated_at AS s_updated_at
    FROM counted
    LEFT JOIN page p ON true
    LEFT JOIN session_scores ss ON ss.project_id = ${projectId} AND ss.session_id = p.session_id AND ss.scorer_name = 'jailbreak_detection'
    ORDER BY p.last_call_at DESC, p.session_id DESC`)) as unknown as { rows: SummaryRow[] };
  const rows = result.rows;
  const total = rows[0]?.total ?? 0;
  const items = rows
    .filter((r) => r.session_id !== null)
    .map((r) => ({
      session_id: r.session_id,
      first_call_at: asDate(r.first_call_at),
      last_call_at: asDate(r.last_call_at),
      calls: r.calls,
      unsafe_calls: r.unsafe_calls,
      session_score:
        r.s_value === null
          ? null
          : {
              scorer_name: "jailbreak_detection" as const,
              score_value: r.s_value,
              score_label: r.s_label!,
              rationale: r.s_rationale!,
              decided_by: r.s_decided_by!,
              turns: r.s_turns!,
              updated_at: asDate(r.s_updated_at!),
            },
    }));
  return { items, total };
}

/**
 * The calls of one session inside `range`, oldest first (`created_at`, then `id`), each with its
 * preview and score chips; at most `MAX_SESSION_CALLS` (`truncated` when the session has more).
 * Reads only the range's months.
 */
export async function getSessionCalls(db: Db, projectId: string, sessionId: string, range: TimeRange) {
  const rows = await db
    .select({ ...requestSummaryColumns, scores: scoreChips(range) })
    .from(llmRequests)
    .where(inSession(projectId, sessionId, range))
    .orderBy(asc(llmRequests.created_at), asc(llmRequests.id))
    .limit(MAX_SESSION_CALLS + 1);
  return { calls: rows.slice(0, MAX_SESSION_CALLS), truncated: rows.length > MAX_SESSION_CALLS };
}

/** The stored session scores of one session (empty when none). */
export async function getSessionScores(db: Db, projectId: string, sessionId: string): Promise<SessionScore[]> {
  return db
    .select({
      scorer_name: sessionScores.scorer_name,
      score_value: sessionScores.score_value,
      score_label: sessionScores.score_label,
      rationale: sessionScores.rationale,
      decided_by: sessionScores.decided_by,
      turns: sessionScores.turns,
      updated_at: sessionScores.updated_at,
    })
    .from(sessionScores)
    .where(and(eq(sessionScores.project_id, projectId), eq(sessionScores.session_id, sessionId)));
}

/** One turn of a session as the session scorer reads it: the call's request body and its current jailbreak score. */
export interface SessionTurn {
  id: string;
  request_body: unknown;
  /** The call's current `jailbreak_detection` Likert value (null: unscored or not yet scored). */
  jailbreak_value: number | null;
}

/** The last `limit` calls of a session, oldest first, with their current jailbreak scores; bodies read through src/bodies/ from `bodies`. */
export async function loadSessionTurns(db: Db, bodies: BodyBucket | null, projectId: string, sessionId: string, limit: number): Promise<SessionTurn[]> {
  const stored = await db
    .select({
      id: llmRequests.id,
      ...storedBodyColumns,
      jailbreak_value: safetyScores.score_value,
      created_at: llmRequests.created_at,
    })
    .from(llmRequests)
    .leftJoin(
      safetyScores,
      and(
        // A score carries its request's created_at (its partition key): the join reads one month.
        scoreOfRequest(),
        eq(safetyScores.scorer_name, "jailbreak_detection"),
        sql`${safetyScores.superseded_at} IS NULL`,
      ),
    )
    .where(inSession(projectId, sessionId))
    .orderBy(sql`${llmRequests.created_at} DESC`, sql`${llmRequests.id} DESC`)
    .limit(limit);
  const rows = await readBodies(bodies, stored.reverse());
  return rows.map(({ id, request_body, jailbreak_value }) => ({ id, request_body, jailbreak_value }));
}

/** Writes (or replaces) the score of one session; `updated_at` becomes now. */
export async function saveSessionScore(db: Db, projectId: string, sessionId: string, score: Omit<SessionScore, "updated_at">): Promise<void> {
  const values = { project_id: projectId, session_id: sessionId, ...score };
  await db
    .insert(sessionScores)
    .values(values)
    .onConflictDoUpdate({
      target: [sessionScores.project_id, sessionScores.session_id, sessionScores.scorer_name],
      set: { ...score, updated_at: sql`now()` },
    });
}

/**
 * Deletes the scores of sessions none of whose calls is stored any more (retention deleted them,
 * src/upkeep/retention.ts), at most `limit` sessions; returns how many score rows went. A session score
 * holds no call text, but it must not outlive the calls it judged. Reads the session index
 * (`metadata ? 'session_id'`).
 */
export async function deleteOrphanSessionScores(db: Db, limit: number, projectIds?: readonly string[]): Promise<number> {
  const scoped = projectIds ? sql`AND ss.project_id = ANY(${`{${projectIds.join(",")}}`}::uuid[])` : sql``;
  const result = (await db.execute(sql`
    DELETE FROM ${sessionScores} WHERE (project_id, session_id) IN (
      SELECT ss.project_id, ss.session_id FROM ${sessionScores} ss
      WHERE NOT EXISTS (SELECT 1 FROM ${llmRequests} r
        WHERE r.project_id = ss.project_id AND r.metadata ? 'session_id' AND r.metadata->>'session_id' = ss.session_id) ${scoped}
      LIMIT ${limit})`)) as unknown as { rowCount: number | null };
  return result.rowCount ?? 0;
}
