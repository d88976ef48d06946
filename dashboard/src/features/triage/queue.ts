/**
 * The triage queue's filters. "To review" is the unsafe calls of a scorer that have no verdict
 * on that scorer's score: the API filters unsafe and each verdict (`label[<scorer>]=unsafe`,
 * `scorer` + `reviewed`), so its count is unsafe − false positives − confirmed (a score has at
 * most one review), and its rows are the unsafe rows whose chip of that scorer has no verdict.
 */
import type { ScorerName } from "../../../server/contract";

/** The verdict filter's choices and their labels. */
export const VERDICTS = { to_review: "To review", false_positive: "False positives", confirmed: "Confirmed", all: "All unsafe" } as const;
/** One of `VERDICTS`. */
export type Verdict = keyof typeof VERDICTS;

/** Query strings of a scorer's unsafe calls in [start, end), and of those reviewed with each verdict. */
export function triageFilters(scorer: ScorerName, start: number, end: number) {
  const q = (extra: Record<string, string>) =>
    new URLSearchParams({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), [`label[${scorer}]`]: "unsafe", ...extra }).toString();
  return {
    unsafe: q({}),
    false_positive: q({ scorer, reviewed: "false_positive" }),
    confirmed: q({ scorer, reviewed: "confirmed" }),
  };
}
