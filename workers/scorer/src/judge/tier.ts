/**
 * The guard-model tier inside the scoring-jobs consumer (docs/scoring.md "Guard-model tier"):
 * after the local scorers, the scores a project's policy sends to a guard model
 * (src/policy/judge.ts `judgeHook`) are asked about, a few at a time, each within a
 * timeout and each after reserving one call of the project's monthly budget
 * (src/db/judge-usage.ts). A verdict decides the score (`mergeVerdict`); a spent budget, a
 * timeout, an error or an answer that is not a verdict keeps the local score, with a warning log
 * line that carries no payload text. The tier never fails or retries a message.
 */
import type { Db } from "../../../../src/db/driver/client";
import { reserveJudgeCall } from "../../../../src/db/judge-usage";
import type { StoredCall } from "../../../../src/db/request-scoring";
import { logWarn } from "../../../../src/logger";
import type { PolicyScore } from "../../../../src/policy/apply";
import { judgeHook, mergeVerdict } from "../../../../src/policy/judge";
import { type JudgeRequest, judgeRequest } from "../../../../src/scoring/judge/prompts";
import type { GuardVerdict } from "../../../../src/scoring/judge/parse";
import type { JudgeBackend } from "./backends";

/** Milliseconds one judge call may take before it is abandoned (and aborted), unless configured. */
export const JUDGE_TIMEOUT_MS = 5_000;

/** Judge calls in flight at once per batch (a batch holds up to 25 calls). */
export const JUDGE_CONCURRENCY = 4;

/** A configured tier: the backend and its limits. */
export interface JudgeTier {
  backend: JudgeBackend;
  timeoutMs: number;
  concurrency: number;
}

/** One judge call's result: a verdict, or why there is none. */
export type JudgeResult = { ok: true; verdict: GuardVerdict } | { ok: false; reason: "timeout" | "error" | "malformed"; detail?: string };

/** Asks `backend` once; never throws. The request is aborted when `timeoutMs` passes. */
export async function askOnce(backend: JudgeBackend, request: JudgeRequest, timeoutMs: number): Promise<JudgeResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A race as well as the signal: a backend that ignores the signal must not hold the batch.
  const expired = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const asked = Promise.resolve().then(() => backend.ask(request, controller.signal));
    const output = await Promise.race([asked.then((verdict) => ({ verdict })), expired]);
    if (output === "timeout") return { ok: false, reason: "timeout" };
    return output.verdict ? { ok: true, verdict: output.verdict } : { ok: false, reason: "malformed" };
  } catch (err) {
    return { ok: false, reason: "error", detail: String(err).slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `fn` over `items` with at most `limit` running at once. */
async function eachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/** One score to put to the guard model. */
interface Task {
  call: StoredCall;
  scores: PolicyScore[];
  index: number;
  request: JudgeRequest;
  model: string;
}

/** The request for one score, or null when the call holds nothing its judge reads (or cannot be read). */
function requestFor(tier: JudgeTier, call: StoredCall, score: PolicyScore): { request: JudgeRequest; model: string } | null {
  const hook = judgeHook(call.policy.policy.judge, score);
  if (!hook) return null;
  const kind = tier.backend.kind(hook);
  let request: JudgeRequest | null;
  try {
    request = judgeRequest(call, hook, kind);
  } catch {
    request = null; // the local scorer reports unreadable payloads itself
  }
  return request && { request, model: tier.backend.model(kind) };
}

/**
 * Puts the scores of `scored` that their projects' policies send to a guard model and replaces
 * each decided one in its list (in place). Per score: reserve one call of the project's monthly
 * budget, then ask; a refused reservation (budget spent), a failed reservation, or a failed call
 * leaves the local score and logs `{msg, request_id, scorer, reason, error?}`.
 */
export async function judgeScores(db: Db, tier: JudgeTier, scored: readonly { call: StoredCall; scores: PolicyScore[] }[]): Promise<void> {
  const tasks: Task[] = [];
  for (const { call, scores } of scored) {
    scores.forEach((score, index) => {
      const asked = requestFor(tier, call, score);
      if (asked) tasks.push({ call, scores, index, ...asked });
    });
  }
  await eachLimit(tasks, tier.concurrency, async ({ call, scores, index, request, model }) => {
    const score = scores[index]!;
    const fields = { request_id: call.id, scorer: score.scorer_name };
    const verdict = await askWithinBudget(db, tier, call.project_id, call.policy.policy.judge_monthly_budget, request, fields);
    if (verdict) scores[index] = mergeVerdict(score, verdict, model);
  });
}

/**
 * Reserves one call of the project's monthly `budget`, then asks the guard model; the verdict,
 * or null when the budget is spent, cannot be reserved, or the call fails (each logged as
 * `{msg, ...fields, reason, error?}`, no payload text). Never throws.
 */
export async function askWithinBudget(
  db: Db,
  tier: JudgeTier,
  projectId: string,
  budget: number,
  request: JudgeRequest,
  fields: Record<string, string>,
): Promise<GuardVerdict | null> {
  let granted: boolean;
  try {
    granted = await reserveJudgeCall(db, projectId, budget);
  } catch (err) {
    logWarn("guard-model budget could not be reserved; local score kept", { ...fields, reason: "budget_error" }, err);
    return null;
  }
  if (!granted) {
    logWarn("guard-model budget spent this month; local score kept", { ...fields, reason: "budget" });
    return null;
  }
  const result = await askOnce(tier.backend, request, tier.timeoutMs);
  if (result.ok) return result.verdict;
  logWarn("guard-model judge failed; local score kept", { ...fields, reason: result.reason, ...(result.detail ? { error: result.detail } : {}) });
  return null;
}
