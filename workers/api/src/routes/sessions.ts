/**
 * GET /api/sessions (page-numbered list of a project's conversations, most recently active first)
 * and GET /api/sessions/{session_id} (one conversation: its calls in order with their previews
 * and score chips, and the session-level scores). A session is the set of calls that carry the
 * same `metadata.session_id` (docs/sessions.md). Read scope; stored text masked for API keys
 * without `admin` as in the request list (./pii-access.ts).
 */
import { z } from "@hono/zod-openapi";
import { getSessionCalls, getSessionScores, listSessions, type SessionScore } from "../../../../src/db/sessions";
import { notFound } from "../../../../src/http/errors";
import { createRouter, jsonResponse, pageOf, projectRoutesTagged } from "./openapi";
import { assertReadAllowed, shownToCaller } from "./pii-access";
import { SessionDetailSchema, SessionSummarySchema, withIsoDates } from "./schemas";
import { SessionDetailQuery, SessionListQuery } from "./queries";
import { retentionStart } from "../../../../src/upkeep/retention";
import type { TimeRange } from "../../../../src/db/paging";
import type { Context } from "hono";
import type { AppBindings } from "../env";

/** Longest session id, in characters (the client libraries and the proxy cut theirs here too). */
const MAX_SESSION_ID_CHARS = 256;

const route = projectRoutesTagged("sessions");

const listRoute = route.list("/api/sessions", { query: SessionListQuery }, pageOf(SessionSummarySchema, "SessionPage"), {
  summary: "List a project's conversations (calls sharing metadata.session_id), most recently active first",
});

const getRoute = route("get", "/api/sessions/{session_id}", "read", {
  summary: "One conversation: its calls in order with previews and scores, and the session-level score",
  description:
    "API keys read stored text with personal data masked unless they have the `admin` scope and ask `reveal=true` (audited). 404 when no call carries this session id.",
  request: {
    params: z.object({ session_id: z.string().min(1).max(MAX_SESSION_ID_CHARS).openapi({ description: "The id the client supplied as metadata.session_id" }) }),
    query: SessionDetailQuery,
  },
  responses: { 200: jsonResponse(SessionDetailSchema, "The session") },
});

const scoreJson = (s: SessionScore) => ({ ...s, updated_at: s.updated_at.toISOString() });

/**
 * The range of calls a session read covers: `start` and `end` as asked; without `start`, the
 * oldest call the project's retention keeps (none for unlimited retention), so the read never
 * covers every month (docs/storage.md).
 */
async function callRange(c: Context<AppBindings>, q: { start?: string | undefined; end?: string | undefined }): Promise<TimeRange> {
  const start = q.start ? new Date(q.start) : await retentionStart(c.var.db, c.var.config.tierRetention, c.var.projectId);
  return { start: start ?? undefined, end: q.end ? new Date(q.end) : undefined };
}

/** Registers the session routes. */
export const sessionRoutes = createRouter()
  .openapi(listRoute, async (c) => {
    const q = c.req.valid("query");
    const { items, total } = await listSessions(c.var.db, c.var.projectId, await callRange(c, q), q);
    const shown = items.map((s) => ({
      ...s,
      first_call_at: s.first_call_at.toISOString(),
      last_call_at: s.last_call_at.toISOString(),
      session_score: s.session_score && scoreJson(s.session_score),
    }));
    return c.json({ items: shown, total, page: q.page, page_size: q.page_size }, 200);
  })
  .openapi(getRoute, async (c) => {
    const { session_id } = c.req.valid("param");
    const q = c.req.valid("query");
    await assertReadAllowed(c, q);
    const range = await callRange(c, q);
    const [{ calls, truncated }, scores] = await Promise.all([
      getSessionCalls(c.var.db, c.var.projectId, session_id, range),
      getSessionScores(c.var.db, c.var.projectId, session_id),
    ]);
    if (calls.length === 0) throw notFound("session");
    const shown = await shownToCaller(c, calls.map(withIsoDates), q.reveal === "true");
    return c.json({ session_id, calls: shown, truncated, session_scores: scores.map(scoreJson) }, 200);
  });
