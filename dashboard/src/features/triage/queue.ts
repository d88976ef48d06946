/**
 * The triage queue's filters, one request filter per tab, so each tab's count and its rows come
 * from the same query (GET /requests/count and GET /requests with the same filter): "To review"
 * is the scorer's unsafe calls without a review of that scorer (`reviewed=none`), "False
 * positives" and "Confirmed" those with that verdict, "All unsafe" all three together. Reviews are
 * kept per call and scorer across re-scores, so a reviewed call never comes back to review.
 */
import type { ScorerName } from "../../../server/contract";

/** The verdict filter's choices and their labels. */
export const VERDICTS = { to_review: "To review", false_positive: "False positives", confirmed: "Confirmed", all: "All unsafe" } as const;
/** One of `VERDICTS`. */
export type Verdict = keyof typeof VERDICTS;

/** Query strings of each tab: a scorer's unsafe calls in [start, end), by review state. */
export function triageFilters(scorer: ScorerName, start: number, end: number): Record<Verdict, string> {
  const q = (extra: Record<string, string>) =>
    new URLSearchParams({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), [`label[${scorer}]`]: "unsafe", ...extra }).toString();
  return {
    to_review: q({ scorer, reviewed: "none" }),
    false_positive: q({ scorer, reviewed: "false_positive" }),
    confirmed: q({ scorer, reviewed: "confirmed" }),
    all: q({}),
  };
}

/** Query of the reviewed-calls export (GET /reviews/export): the calls of [start, end) reviewed on `scorer`, whatever their score now. */
export function reviewedExportQuery(scorer: ScorerName, start: number, end: number) {
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString(), scorer };
}
