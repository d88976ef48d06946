/**
 * Review verdicts (table `score_reviews`): one per (request, scorer), the latest wins, kept
 * across re-scores (docs/rescoring.md "Reviews"). Also the review's state beside the current
 * score (`reviewChanged`) and the calibration counts of the Policy page.
 */
import { and, eq, sql, type SQL } from "drizzle-orm";
import { CALIBRATION_THRESHOLDS, type REVIEW_VERDICTS, SCORER_NAMES, type ScorerName } from "../enums";
import type { Db } from "./driver/client";
import { safetyScores, scoreReviews } from "./schema";
import { readByRefs } from "./request-time";

/**
 * Stores `verdict` by `reviewer` on the project's score `scoreId`, for that score's request and
 * scorer (replacing an earlier verdict, with the new reviewer, time and reviewed score) in one
 * statement, which reads the score in the month its id points to (a score's id carries its
 * request's time), and every month only when it is not there (src/db/request-time.ts
 * `readByRefs`: scores made before ids carried that time). Returns the stored review, or null
 * when the project has no such score.
 */
export async function reviewScore(db: Db, projectId: string, scoreId: string, verdict: (typeof REVIEW_VERDICTS)[number], reviewer: string) {
  const [row] = await readByRefs(safetyScores.created_at, [{ id: scoreId }], async (bound) =>
    (await storeReview(db, projectId, scoreId, verdict, reviewer, bound)).map((r) => ({ ...r, id: r.score_id })),
  );
  if (!row) return null;
  const { id: _id, ...review } = row;
  return review;
}

/** One run of `reviewScore`'s statement, the score read within `bound` (every month when undefined). */
function storeReview(db: Db, projectId: string, scoreId: string, verdict: (typeof REVIEW_VERDICTS)[number], reviewer: string, bound: SQL | undefined) {
  return db
    .insert(scoreReviews)
    .select(
      db
        .select({
          request_id: safetyScores.request_id,
          scorer_name: safetyScores.scorer_name,
          project_id: safetyScores.project_id,
          score_id: safetyScores.id,
          verdict: sql`${verdict}`.as("verdict"),
          reviewer: sql`${reviewer}`.as("reviewer"),
          reviewed_at: sql`now()`.as("reviewed_at"),
          score_value: safetyScores.score_value,
          score_label: safetyScores.score_label,
          scorer_version: safetyScores.scorer_version,
          policy_version: safetyScores.policy_version,
        })
        .from(safetyScores)
        .where(and(eq(safetyScores.project_id, projectId), eq(safetyScores.id, scoreId), bound)),
    )
    .onConflictDoUpdate({
      target: [scoreReviews.request_id, scoreReviews.scorer_name],
      set: {
        score_id: sql`excluded.score_id`,
        verdict: sql`excluded.verdict`,
        reviewer: sql`excluded.reviewer`,
        reviewed_at: sql`excluded.reviewed_at`,
        score_value: sql`excluded.score_value`,
        score_label: sql`excluded.score_label`,
        scorer_version: sql`excluded.scorer_version`,
        policy_version: sql`excluded.policy_version`,
      },
    })
    .returning();
}

/** A score's value and label (current or reviewed). */
type ScoreFace = { score_value: number | null; score_label: string };

/**
 * True when the current score differs in value or label from the one the review was given on
 * ("score changed since review"; `reviewChanged` is the same test in SQL).
 */
export function changedSinceReview(current: ScoreFace, reviewed: ScoreFace): boolean {
  return current.score_value !== reviewed.score_value || current.score_label !== reviewed.score_label;
}

/**
 * SQL boolean: the review `r` was given on a score whose value or label differs from the
 * current score `s` of the same request and scorer ("score changed since review"). A re-score
 * that gives the same value and label under a new version is not a change.
 */
export const reviewChanged = (s: string, r: string): SQL =>
  sql.raw(`(${s}.score_value IS DISTINCT FROM ${r}.score_value OR ${s}.score_label <> ${r}.score_label)`);

/** One scorer's reviewed calls and what each threshold would flag among them. */
export interface ScorerCalibration {
  scorer_name: ScorerName;
  /** Reviewed `confirmed` (the call is unsafe) with a current score. */
  confirmed: number;
  /** Reviewed `false_positive` (the call is safe) with a current score. */
  false_positives: number;
  /** Per threshold t: confirmed calls whose current score is >= t (caught) and false positives >= t (flagged). */
  thresholds: { unsafe_at: number; caught: number; flagged: number }[];
}

/**
 * Over the project's reviewed calls (each verdict beside its current score of that scorer), per
 * scorer: how many confirmed calls each `unsafe_at` of CALIBRATION_THRESHOLDS would catch and how
 * many false positives it would flag. One aggregate over `score_reviews` joined to the current
 * scores through their unique index. Every scorer is listed, with zeros when it has no reviews.
 */
export async function calibration(db: Db, projectId: string): Promise<ScorerCalibration[]> {
  const perThreshold = sql.join(
    CALIBRATION_THRESHOLDS.map(
      (t) => sql`count(*) FILTER (WHERE r.verdict = 'confirmed' AND s.score_value >= ${t})::int AS ${sql.identifier(`caught_${t}`)},
        count(*) FILTER (WHERE r.verdict = 'false_positive' AND s.score_value >= ${t})::int AS ${sql.identifier(`flagged_${t}`)}`,
    ),
    sql`, `,
  );
  const result = (await db.execute(sql`
    SELECT r.scorer_name, count(*) FILTER (WHERE r.verdict = 'confirmed')::int AS confirmed,
      count(*) FILTER (WHERE r.verdict = 'false_positive')::int AS false_positives, ${perThreshold}
    FROM ${scoreReviews} r
    JOIN ${safetyScores} s ON s.request_id = r.request_id AND s.scorer_name = r.scorer_name AND s.superseded_at IS NULL
    WHERE r.project_id = ${projectId}
    GROUP BY r.scorer_name`)) as unknown as { rows: (Record<string, number> & { scorer_name: ScorerName })[] };
  const byName = new Map(result.rows.map((r) => [r.scorer_name, r]));
  return SCORER_NAMES.map((scorer_name) => {
    const r = byName.get(scorer_name);
    return {
      scorer_name,
      confirmed: r?.confirmed ?? 0,
      false_positives: r?.false_positives ?? 0,
      thresholds: CALIBRATION_THRESHOLDS.map((t) => ({ unsafe_at: t, caught: r?.[`caught_${t}`] ?? 0, flagged: r?.[`flagged_${t}`] ?? 0 })),
    };
  });
}
