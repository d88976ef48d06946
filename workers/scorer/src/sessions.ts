/**
 * Session-level scores in the scoring-jobs consumer (docs/sessions.md): after a batch's scores
 * are stored, each session touched by the batch (calls with `metadata.session_id`) is judged
 * whole by the jailbreak room's session rules (src/scoring/scorers/jailbreak_detection/session.ts)
 * over its last calls and, when the project's policy turns the guard-model tier on and the
 * worker has a backend, by the guard model reading the last turns together (same hook, band,
 * budget and backends as the per-call tier, judge/tier.ts). The verdict is written to
 * `session_scores` (this worker is its one writer). Never fails the batch: an error is logged
 * and the session keeps its previous score until its next call.
 */
import type { Db } from "../../../src/db/driver/client";
import type { StoredCall } from "../../../src/db/request-scoring";
import { loadSessionTurns, saveSessionScore } from "../../../src/db/sessions";
import { LOCAL_DECIDER } from "../../../src/enums";
import { logWarn } from "../../../src/logger";
import { labelAt, type PolicyScore } from "../../../src/policy/apply";
import { judgeHook, mergeVerdict } from "../../../src/policy/judge";
import { judgeRequest } from "../../../src/scoring/judge/prompts";
import { SESSION_WINDOW, scoreSession } from "../../../src/scoring/scorers/jailbreak_detection/session";
import { SCORER_VERSIONS } from "../../../src/scoring/version";
import { askWithinBudget, type JudgeTier } from "./judge/tier";
import type { BodyBucket } from "../../../src/bodies/bucket";

const SCORER = "jailbreak_detection" as const;

/**
 * The session id of a call as the API reads it (`metadata ->> 'session_id'`: a non-empty string,
 * or a number as its text), or undefined.
 */
export function sessionOf(call: Pick<StoredCall, "metadata">): string | undefined {
  const id = call.metadata?.session_id;
  if (typeof id === "number" && Number.isFinite(id)) return String(id);
  return typeof id === "string" && id.trim() !== "" ? id : undefined;
}

/** Scores every session that `calls` belong to (once per session) and stores the verdicts; bodies read from `bodies` (src/bodies/). */
export async function scoreSessions(db: Db, bodies: BodyBucket | null, judge: JudgeTier | undefined, calls: readonly StoredCall[]): Promise<void> {
  const sessions = new Map<string, { call: StoredCall; sessionId: string }>();
  for (const call of calls) {
    const sessionId = sessionOf(call);
    if (sessionId === undefined || !call.policy.policy.scorers[SCORER].enabled) continue;
    sessions.set(JSON.stringify([call.project_id, sessionId]), { call, sessionId });
  }
  for (const { call, sessionId } of sessions.values()) {
    try {
      await scoreOneSession(db, bodies, judge, call, sessionId);
    } catch (err) {
      logWarn("session score failed; kept until the session's next call", { project_id: call.project_id }, err);
    }
  }
}

async function scoreOneSession(db: Db, bodies: BodyBucket | null, judge: JudgeTier | undefined, call: StoredCall, sessionId: string): Promise<void> {
  const verdict = scoreSession(await loadSessionTurns(db, bodies, call.project_id, sessionId, SESSION_WINDOW));
  if (!verdict) return;
  const { policy, version } = call.policy;
  const unsafeAt = policy.scorers[SCORER].unsafe_at;
  let score: PolicyScore = {
    scorer_name: SCORER,
    score_value: verdict.score_value,
    score_label: labelAt(verdict.score_value, unsafeAt),
    rationale: verdict.rationale,
    scorer_version: SCORER_VERSIONS[SCORER],
    unsafe_at: unsafeAt,
    policy_version: version,
    decided_by: LOCAL_DECIDER,
  };
  const hook = judge ? judgeHook(policy.judge, score) : null;
  if (judge && hook) {
    const kind = judge.backend.kind(hook);
    const request = judgeRequest(verdict.joined, hook, kind);
    const fields = { request_id: call.id, scorer: `${SCORER} (session)` };
    const said = request && (await askWithinBudget(db, judge, call.project_id, policy.judge_monthly_budget, request, fields));
    if (said) score = mergeVerdict(score, said, judge.backend.model(kind));
  }
  await saveSessionScore(db, call.project_id, sessionId, {
    scorer_name: SCORER,
    score_value: score.score_value ?? verdict.score_value,
    score_label: score.score_label,
    rationale: score.rationale,
    decided_by: score.decided_by,
    turns: verdict.turns,
  });
}
