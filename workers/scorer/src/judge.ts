/**
 * The Llama Guard judge's I/O: asks Workers AI (`@cf/meta/llama-guard-3-8b`) about each call
 * of a batch, a few at a time and each within a timeout, and merges the verdicts into the
 * `content_safety` scores. Every failure (throw, timeout, malformed output) is logged and
 * leaves the rule-based score: the judge can refine scoring, never block or retry it.
 * Interface: https://developers.cloudflare.com/workers-ai/models/llama-guard-3-8b/
 */
import {
  llamaGuardConversation,
  mergeJudge,
  parseLlamaGuard,
  type LlamaGuardMessage,
  type LlamaGuardVerdict,
} from "../../../src/scoring/scorers/content_safety/judge";
import type { NamedScore } from "../../../src/scoring/registry";
import type { ScorableCall } from "../../../src/scoring/types";
import { logWarn } from "../../../src/logger";

/** Workers AI model id of Llama Guard 3 8B. */
export const LLAMA_GUARD_MODEL = "@cf/meta/llama-guard-3-8b";

/** Milliseconds one judge call may take before it is abandoned (and aborted). */
export const JUDGE_TIMEOUT_MS = 5_000;

/** Judge calls in flight at once per batch (a batch holds up to 25 calls). */
export const JUDGE_CONCURRENCY = 4;

/**
 * The slice of the `Ai` binding the judge uses. `run` resolves to
 * `Ai_Cf_Meta_Llama_Guard_3_8B_Output`, `{response?: string | {safe?, categories?}, usage?}`,
 * and rejects on errors (capacity, network, bad input).
 */
export interface LlamaGuardBinding {
  run(model: typeof LLAMA_GUARD_MODEL, inputs: Ai_Cf_Meta_Llama_Guard_3_8B_Input, options?: AiOptions): Promise<unknown>;
}

/** One judge call's result: a verdict, or why there is none. */
export type JudgeResult = { ok: true; verdict: LlamaGuardVerdict } | { ok: false; reason: "timeout" | "error" | "malformed"; detail?: string };

/**
 * Inputs for one call: the conversation, the JSON response format (so `response` is the
 * `{safe, categories}` object), temperature 0 for a repeatable verdict (the model's default is
 * 0.6), and room for "unsafe" plus all 14 codes.
 */
export function llamaGuardInputs(messages: LlamaGuardMessage[]): Ai_Cf_Meta_Llama_Guard_3_8B_Input {
  return { messages, response_format: { type: "json_object" }, temperature: 0, max_tokens: 100 };
}

/** Asks Llama Guard once; never throws. The run is aborted when `timeoutMs` passes. */
export async function askLlamaGuard(ai: LlamaGuardBinding, messages: LlamaGuardMessage[], timeoutMs = JUDGE_TIMEOUT_MS): Promise<JudgeResult> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  // A race as well as the signal: a binding that ignores the signal must not hold the batch.
  const expired = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve("timeout");
    }, timeoutMs);
  });
  try {
    const run = Promise.resolve().then(() => ai.run(LLAMA_GUARD_MODEL, llamaGuardInputs(messages), { signal: controller.signal }));
    const output = await Promise.race([run.then((value) => ({ value })), expired]);
    if (output === "timeout") return { ok: false, reason: "timeout" };
    const response = typeof output.value === "object" && output.value !== null ? (output.value as { response?: unknown }).response : undefined;
    const verdict = parseLlamaGuard(response);
    return verdict ? { ok: true, verdict } : { ok: false, reason: "malformed" };
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

/**
 * Judges every call that has user text; returns the verdicts by call id. Calls without a
 * verdict are absent: those with nothing to judge silently, failures with a warning log line
 * `{msg, request_id, reason, error?}` (the error text only, never payload text).
 */
export async function judgeCalls(
  ai: LlamaGuardBinding,
  calls: readonly (ScorableCall & { id: string })[],
  opts: { timeoutMs?: number; concurrency?: number } = {},
): Promise<Map<string, LlamaGuardVerdict>> {
  const verdicts = new Map<string, LlamaGuardVerdict>();
  await eachLimit(calls, opts.concurrency ?? JUDGE_CONCURRENCY, async (call) => {
    let messages: LlamaGuardMessage[] | null;
    try {
      messages = llamaGuardConversation(call);
    } catch {
      messages = null; // the rule-based scorer reports unreadable payloads itself
    }
    if (!messages) return;
    const result = await askLlamaGuard(ai, messages, opts.timeoutMs);
    if (result.ok) verdicts.set(call.id, result.verdict);
    else {
      const fields = { request_id: call.id, reason: result.reason, ...(result.detail ? { error: result.detail } : {}) };
      logWarn("llama guard judge failed; rule-based content_safety kept", fields);
    }
  });
  return verdicts;
}

/** The scores with the verdict merged into `content_safety` (others untouched). */
export function withJudge(scores: NamedScore[], verdict: LlamaGuardVerdict | undefined): NamedScore[] {
  if (!verdict) return scores;
  return scores.map((s) => (s.scorer_name === "content_safety" ? { scorer_name: s.scorer_name, ...mergeJudge(s, verdict) } : s));
}
