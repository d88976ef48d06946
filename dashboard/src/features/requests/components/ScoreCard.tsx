/**
 * One scorer's verdict in the drawer: unsafe (red, ✕), safe (green, ✓) or unscored (grey, –)
 * at a glance, the Likert value on a five-step scale (with the policy's unsafe threshold), the
 * rationale, which guard model decided it (when one did), the scores re-scoring replaced, the
 * review and, for members, the review buttons on unsafe scores (false positive or confirmed). A
 * review stays with the call across re-scores; when the score's value or label has moved since,
 * the card says so and shows what was reviewed.
 */
import { LOCAL_DECIDER, type ReviewVerdict, type ScoreHistoryEntry } from "../../../../server/contract";
import { Button, cn, when } from "../../../components/ui";
import { chipOfScore, chipState, SCORER_INFO, STATE_STYLE } from "../scorers";
import type { Score } from "../types";
import { ScoreHistory } from "./ScoreHistory";

const CARD = {
  unsafe: "border-red-300 border-l-red-600 bg-red-50 dark:border-red-900 dark:border-l-red-500 dark:bg-red-950/60",
  safe: "border-emerald-200 border-l-emerald-600 bg-white dark:border-emerald-900 dark:border-l-emerald-500 dark:bg-zinc-950",
  unscored: "border-zinc-200 border-l-zinc-400 bg-white dark:border-zinc-800 dark:border-l-zinc-500 dark:bg-zinc-950",
  pending: "border-zinc-200 border-l-zinc-400 bg-white dark:border-zinc-800 dark:bg-zinc-950",
  false_positive: "border-amber-200 border-l-amber-500 bg-amber-50 dark:border-amber-900 dark:bg-amber-950/60",
};

const HEADLINE = { unsafe: "Unsafe", safe: "Safe", unscored: "Unscored", pending: "Pending", false_positive: "False positive (reviewed)" };

/** A score's card; `history` is the request's replaced scores (all scorers); `onReview` is absent for roles that cannot review. */
export function ScoreCard({
  score,
  history,
  onReview,
  busy,
}: {
  score: Score;
  history: readonly ScoreHistoryEntry[];
  onReview?: (verdict: ReviewVerdict) => void;
  busy?: boolean;
}) {
  const state = chipState(chipOfScore(score));
  const info = SCORER_INFO[score.scorer_name];
  return (
    <li className={cn("flex flex-col gap-2 rounded-md border border-l-4 p-3", CARD[state])}>
      <div className="flex items-start justify-between gap-2">
        <div>
          <span className="font-semibold capitalize">{info.short}</span> <code className="text-xs text-zinc-700 dark:text-zinc-300">{score.scorer_name}</code>
          <p className="text-xs text-zinc-700 dark:text-zinc-300">{info.about}</p>
        </div>
        <span
          className={cn(
            "inline-flex shrink-0 items-center gap-1 rounded-full border px-2 py-0.5 text-xs font-semibold",
            STATE_STYLE[state].chip,
            "no-underline",
          )}
        >
          <span aria-hidden="true">{STATE_STYLE[state].symbol}</span>
          {HEADLINE[state]}
        </span>
      </div>
      {score.score_value !== null && (
        <div className="flex items-center gap-2 text-xs">
          <span aria-hidden="true" className="flex gap-0.5">
            {[1, 2, 3, 4, 5].map((n) => (
              <span
                key={n}
                className={cn(
                  "h-2 w-5 rounded-sm",
                  n > score.score_value!
                    ? "bg-zinc-200 dark:bg-zinc-700"
                    : score.score_label === "unsafe"
                      ? "bg-red-600 dark:bg-red-500"
                      : "bg-emerald-600 dark:bg-emerald-500",
                )}
              />
            ))}
          </span>
          <span>
            Score {score.score_value} of 5 <span className="text-zinc-700 dark:text-zinc-300">({score.unsafe_at}-5 unsafe)</span>
          </span>
        </div>
      )}
      <p className="text-sm">{score.rationale}</p>
      {score.decided_by && score.decided_by !== LOCAL_DECIDER && (
        <p className="text-xs text-zinc-700 dark:text-zinc-300">
          Judged by <code>{score.decided_by}</code>
        </p>
      )}
      <ScoreHistory score={score} history={history} />
      {score.review && <ReviewLine review={score.review} />}
      {onReview && score.score_label === "unsafe" && (
        <span className="flex gap-2">
          <Button variant="secondary" disabled={busy} aria-pressed={score.review?.verdict === "false_positive"} onClick={() => onReview("false_positive")}>
            Mark false positive
          </Button>
          <Button variant="secondary" disabled={busy} aria-pressed={score.review?.verdict === "confirmed"} onClick={() => onReview("confirmed")}>
            Confirm
          </Button>
        </span>
      )}
    </li>
  );
}

/** Who reviewed what and when; "Score changed since review" with the reviewed score when it moved. */
function ReviewLine({ review }: { review: NonNullable<Score["review"]> }) {
  const reviewed = `${review.score_value ?? "–"} of 5, ${review.score_label}`;
  return (
    <div className="flex flex-col gap-1 text-xs">
      <p>
        Reviewed {review.verdict.replace("_", " ")} by {review.reviewer}, {when(review.reviewed_at)}
      </p>
      {review.changed && (
        <p className="w-fit rounded border border-amber-400 bg-amber-50 px-1.5 py-0.5 font-medium text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          Score changed since review (reviewed: {reviewed}, policy version {review.policy_version})
        </p>
      )}
    </div>
  );
}
