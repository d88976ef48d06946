/**
 * What a scorer's room declares for the guard-model tier (docs/scoring.md "Guard-model tier"):
 * the Likert values where the local scorer is unsure, how a guard model is asked about the call,
 * the written policy and the parts of the call that scorer's judge reads. Declared in the room's
 * `judge.ts` and set on its spec (`LearnedSpec.judge`); `pii_detection` and
 * `unbounded_consumption` declare none and are never judged.
 */
import type { ExtractedCall } from "../text";
import type { ScorableCall } from "../types";

/**
 * How a guard model is asked:
 * - `llama_guard`: the call as a conversation for a Llama Guard model (its own hazard taxonomy;
 *   answer "safe" or "unsafe\nS1,S10", or Workers AI's `{safe, categories}`);
 * - `policy`: the room's written policy for an instruct model, answered with the JSON verdict
 *   `{"unsafe": bool, "reason": "..."}` (./parse.ts).
 */
export type JudgePromptKind = "llama_guard" | "policy";

/**
 * One turn of the conversation sent to a Llama Guard model: the shape of
 * `Ai_Cf_Meta_Llama_Guard_3_8B_Input["messages"][number]` (roles alternate, user first).
 */
export interface LlamaGuardMessage {
  role: "user" | "assistant";
  content: string;
}

/** A scorer's hook into the guard-model tier. */
export interface JudgeHook {
  /**
   * Inclusive Likert range `[lo, hi]` of local scores that count as unsure: under policy
   * `judge: "uncertain"` only these are judged (under `"all"`, every scored call is).
   */
  band: readonly [lo: 1 | 2 | 3 | 4 | 5, hi: 1 | 2 | 3 | 4 | 5];
  /** How the guard model is asked by preference (`JudgePromptKind`); every hook also has a policy prompt. */
  prompt: JudgePromptKind;
  /** What counts as unsafe for this scorer, written for an instruct model (the policy prompt's system message). */
  policy: string;
  /**
   * The policy prompt's user message: the parts of the call this scorer reads, framed with
   * `tagged` (./prompts.ts); null when the call holds nothing this judge reads.
   */
  material: (x: ExtractedCall) => string | null;
  /** For `prompt: "llama_guard"`: the conversation a Llama Guard model classifies, or null. */
  conversation?: (call: ScorableCall) => LlamaGuardMessage[] | null;
}
