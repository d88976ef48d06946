/**
 * What a scorer's room declares for the guard-model tier (docs/scoring.md "Guard-model tier"):
 * the Likert values where the local scorer is unsure, and how a guard model is asked about the
 * call. Declared on the room's spec (`LearnedSpec.judge`); `pii_detection` and
 * `unbounded_consumption` declare none and are never judged.
 */

/**
 * How a guard model is asked:
 * - `llama_guard`: the call as a conversation for a Llama Guard model (its own hazard taxonomy;
 *   answer "safe" or "unsafe\nS1,S10", or Workers AI's `{safe, categories}`);
 * - `policy`: a written policy prompt for an instruct model, answered with the JSON verdict
 *   `{"unsafe": bool, "reason": "..."}` (./prompts.ts).
 */
export const JUDGE_PROMPT_KINDS = ["llama_guard", "policy"] as const;

/** One of `JUDGE_PROMPT_KINDS`. */
export type JudgePromptKind = (typeof JUDGE_PROMPT_KINDS)[number];

/** A scorer's hook into the guard-model tier. */
export interface JudgeHook {
  /**
   * Inclusive Likert range `[lo, hi]` of local scores that count as unsure: under policy
   * `judge: "uncertain"` only these are judged (under `"all"`, every scored call is).
   */
  band: readonly [lo: 1 | 2 | 3 | 4 | 5, hi: 1 | 2 | 3 | 4 | 5];
  /** How the guard model is asked (`JudgePromptKind`). */
  prompt: JudgePromptKind;
}
