/**
 * The triage queue's filters, one request filter per tab, so each tab's count and its rows come
 * from the same query (GET /requests/count and GET /requests with the same filter): "To review"
 * is the scorer's unsafe calls without a review of that scorer (`reviewed=none`), "False
 * positives" and "Confirmed" those with that verdict, "All unsafe" all three together. Reviews are
 * kept per call and scorer across re-scores, so a reviewed call never comes back to review.
 */
import { REVIEW_VERDICTS, type ReviewVerdict, type ScorerName } from "../../../server/contract";

/** A tab of the verdict filter: the calls to review, those with one review verdict, or all unsafe calls. */
export type Verdict = "to_review" | ReviewVerdict | "all";

/** The verdict filter's choices and their labels, in tab order. */
export const VERDICTS: Record<Verdict, string> = { to_review: "To review", false_positive: "False positives", confirmed: "Confirmed", all: "All unsafe" };

/** The tabs in order: to review, each review verdict of REVIEW_VERDICTS, all. */
export const VERDICT_TABS: readonly Verdict[] = ["to_review", ...REVIEW_VERDICTS, "all"];

/** Query strings of each tab: a scorer's unsafe calls in [start, end), by review state. */
export function triageFilters(scorer: ScorerName, start: number, end: number): Record<Verdict, string> {
  const q = (extra: Record<string, string>) =>
    new URLSearchParams({ start: new Date(start).toISOString(), end: new Date(end).toISOString(), [`label[${scorer}]`]: "unsafe", ...extra }).toString();
  return {
    to_review: q({ scorer, reviewed: "none" }),
    ...(Object.fromEntries(REVIEW_VERDICTS.map((v) => [v, q({ scorer, reviewed: v })])) as Record<ReviewVerdict, string>),
    all: q({}),
  };
}

/** Query of the reviewed-calls export (GET /reviews/export): the calls of [start, end) reviewed on `scorer`, whatever their score now. */
export function reviewedExportQuery(scorer: ScorerName, start: number, end: number) {
  return { start: new Date(start).toISOString(), end: new Date(end).toISOString(), scorer };
}
