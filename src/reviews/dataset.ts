/**
 * Reviewed calls as labelled data (issue 33.3): one item per call in the item format of the
 * scorer development data (`../shared/eval/README.md`: `id`, `source`, `request_body`,
 * `response_body`, `expected[<scorer>]` = `safe` | `unsafe`), so `npm run eval -- <file>` reads an
 * export like the shared files (scripts/eval/reviewed-file.ts). A `confirmed` review means the
 * scorer was right to flag the call (`unsafe`); a `false_positive` means the call is `safe` for
 * that scorer. `sightline` carries what the file's reader needs beyond the format: the scores
 * Sightline stored for the call (the current ones when exported) and each review's reviewed score.
 */
import type { ReviewedCall } from "../db/review-export";
import { changedSinceReview } from "../db/reviews";
import type { JudgedLabel, ReviewVerdict, ScoreLabel, ScorerName } from "../enums";

/** The label a review gives its scorer: `confirmed` → `unsafe`, `false_positive` → `safe`. */
export const EXPECTED_OF_VERDICT: Record<ReviewVerdict, JudgedLabel> = { confirmed: "unsafe", false_positive: "safe" };

/** A stored score in an exported item. */
export interface ItemScore {
  score_value: number | null;
  score_label: ScoreLabel;
  scorer_version: string;
  unsafe_at: number;
  policy_version: number;
}

/** One exported reviewed call (a line of the JSONL). */
export interface ReviewedItem {
  /** The request id. */
  id: string;
  /** `sightline:<project id>`. */
  source: string;
  request_body: unknown;
  response_body: unknown;
  expected: Partial<Record<ScorerName, JudgedLabel>>;
  sightline: {
    created_at: string;
    model: string;
    provider: string;
    /** The call's current scores when exported, by scorer. */
    scores: Partial<Record<ScorerName, ItemScore>>;
    /** Each review: the verdict, when, the score reviewed and whether the current score differs from it. */
    reviews: Partial<
      Record<ScorerName, { verdict: ReviewVerdict; reviewed_at: string; score_value: number | null; score_label: ScoreLabel; changed: boolean }>
    >;
  };
}

/**
 * The item of one reviewed call; `mask` masks the bodies (identity for a caller allowed the raw
 * text). The reviewer's identity is left out: a dataset does not need it.
 */
export function reviewedItem(call: ReviewedCall, mask: (value: unknown) => unknown): ReviewedItem {
  const scores: ReviewedItem["sightline"]["scores"] = {};
  for (const s of call.scores) {
    scores[s.scorer_name] = {
      score_value: s.score_value,
      score_label: s.score_label,
      scorer_version: s.scorer_version,
      unsafe_at: s.unsafe_at,
      policy_version: s.policy_version,
    };
  }
  const expected: ReviewedItem["expected"] = {};
  const reviews: ReviewedItem["sightline"]["reviews"] = {};
  for (const r of call.reviews) {
    expected[r.scorer_name] = EXPECTED_OF_VERDICT[r.verdict];
    const now = scores[r.scorer_name];
    reviews[r.scorer_name] = {
      verdict: r.verdict,
      reviewed_at: r.reviewed_at.toISOString(),
      score_value: r.score_value,
      score_label: r.score_label,
      changed: now !== undefined && changedSinceReview(now, r),
    };
  }
  return {
    id: call.id,
    source: `sightline:${call.project_id}`,
    request_body: mask(call.request_body),
    response_body: mask(call.response_body),
    expected,
    sightline: { created_at: call.created_at.toISOString(), model: call.model, provider: call.provider, scores, reviews },
  };
}
