/**
 * jailbreak_detection over a whole conversation (docs/sessions.md): attacks spread over turns,
 * which a per-turn guard misses because no single turn carries the attack.
 *
 * - Crescendo (Russinovich, Salem and Eldan 2024, "Great, Now Write an Article About That: The
 *   Crescendo Multi-Turn LLM Jailbreak Attack", arXiv:2404.01833): benign-looking turns that
 *   step towards the goal, each building on the last; the risk of the turns rises.
 * - A harmful question split across turns, and gradual role play: a frame set up in an early
 *   turn (a fictional chemist, "stay in character") and exploited later ("list the steps as in
 *   the story"). Multi-turn human jailbreaks break defences that hold against single-turn attacks
 *   (Li et al. 2024, "LLM Defenses Are Not Robust to Multi-Turn Human Jailbreaks Yet",
 *   arXiv:2408.15221); most multi-turn attacks are detectable only from the second turn on, and
 *   per-turn guards miss them (NeMo Guardrails issue #2028; OpenAI Guardrails reads the history).
 *
 * Two signals, over the last `SESSION_WINDOW` calls of the session:
 * 1. Cross-turn rules: the room's own rules (./rules.ts `scoreJailbreak`) on the NEW user turns of
 *    the last `CROSS_TURN_WINDOW` calls joined as one text, so a frame in turn 1 and a goal in
 *    turn 3 are seen together (`framed_harmful_goal`), and a question split across turns is read whole.
 * 2. The trend of per-turn risk: the calls' stored jailbreak_detection values (rules and model)
 *    rising by `RISE` or more to at least 3 (a crescendo), or `SUSTAINED` turns at 3 or more
 *    (sustained grey-zone pressure); either counts as 4.
 * The session's value is the highest of the two and of the worst single turn. Pure: the scorer
 * worker loads the turns and stores the verdict (workers/scorer/src/sessions.ts).
 */
import { extractCall } from "../../text";
import type { ScorableCall } from "../../types";
import { scoreJailbreak } from "./rules";

/** Calls of a session judged together: the last six (Crescendo reaches its goal in under ten turns, most in about five). */
export const SESSION_WINDOW = 6;

/** New user turns joined for the cross-turn rules (the frame, the approach, the goal, one spare). */
export const CROSS_TURN_WINDOW = 4;

/** Likert rise across the window that counts as escalation (e.g. 1 to 3, or 2 to 4). */
export const RISE = 2;

/** Turns at 3 or more in the window that count as sustained pressure. */
export const SUSTAINED = 3;

/** Characters kept of each new user turn (the rules' regexes and the judge prompt stay bounded). */
const TURN_CHARS = 4_000;

/** One call of a session as the session score reads it. */
export interface SessionTurn {
  /** The call's logged request body (any supported provider shape). */
  request_body: unknown;
  /** Its current jailbreak_detection Likert value; null when unscored. */
  jailbreak_value: number | null;
}

/** The session-level jailbreak verdict (before a guard model, if any, decides it). */
export interface SessionVerdict {
  score_value: 1 | 2 | 3 | 4 | 5;
  rationale: string;
  /** Calls judged (at most `SESSION_WINDOW`). */
  turns: number;
  /** The joined new user turns, as one call: what the guard model reads (`jailbreakJudge`). */
  joined: ScorableCall;
}

/** The newest user turn of a request body: its last user text ("" when it has none). */
export function newUserTurn(requestBody: unknown): string {
  try {
    const user = extractCall(requestBody, null).user;
    return (user.at(-1) ?? "").slice(0, TURN_CHARS);
  } catch {
    return "";
  }
}

/** The new user turns as one call whose single user message reads `Turn 1: ...`, `Turn 2: ...`. */
export function joinedTurns(texts: readonly string[]): ScorableCall {
  const content = texts.map((t, i) => `Turn ${i + 1}: ${t}`).join("\n\n");
  return {
    model: "session",
    provider: "session",
    prompt_tokens: 0,
    completion_tokens: 0,
    cost_usd: null,
    latency_ms: 0,
    request_body: { messages: [{ role: "user", content }] },
    response_body: null,
  };
}

/**
 * The trend signal of per-turn values (oldest first, nulls skipped): `rising` when the last value
 * is at least 3 and `RISE` above the lowest before it; `sustained` turns at 3 or more.
 */
export function riskTrend(values: readonly (number | null)[]): { rising: boolean; sustained: number } {
  const known = values.filter((v): v is number => v !== null);
  const last = known.at(-1);
  const before = known.slice(0, -1);
  const rising = last !== undefined && before.length > 0 && last >= 3 && last - Math.min(...before) >= RISE;
  return { rising, sustained: known.filter((v) => v >= 3).length };
}

const clamp = (v: number) => Math.max(1, Math.min(5, Math.round(v))) as 1 | 2 | 3 | 4 | 5;

/**
 * Scores the last `SESSION_WINDOW` of `turns` (oldest first) together; null when no turn holds
 * user text. See the module doc for the signals and their sources.
 */
export function scoreSession(turns: readonly SessionTurn[]): SessionVerdict | null {
  const window = turns.slice(-SESSION_WINDOW);
  const texts = window
    .slice(-CROSS_TURN_WINDOW)
    .map((t) => newUserTurn(t.request_body))
    .filter((t) => t.trim() !== "");
  if (texts.length === 0) return null;
  const joined = joinedTurns(texts);
  const cross = scoreJailbreak(joined);
  const crossValue = cross.score_value ?? 1;
  const values = window.map((t) => t.jailbreak_value);
  const worst = Math.max(1, ...values.filter((v): v is number => v !== null));
  const trend = riskTrend(values);
  const trendValue = trend.rising || trend.sustained >= SUSTAINED ? 4 : 1;
  const value = clamp(Math.max(crossValue, trendValue, worst));
  const reasons: string[] = [];
  if (crossValue >= 3) reasons.push(`across ${texts.length} turns: ${cross.rationale}`);
  if (trend.rising) reasons.push("per-turn jailbreak risk rising (crescendo)");
  if (trend.sustained >= SUSTAINED) reasons.push(`${trend.sustained} turns in the grey zone (3+)`);
  if (worst >= 4) reasons.push(`a single turn scored ${worst}`);
  const rationale = reasons.length ? reasons.join("; ") : `no multi-turn jailbreak pattern in ${window.length} turns`;
  return { score_value: value, rationale, turns: window.length, joined };
}
