/** Review verdicts on safety scores (table `score_reviews`): one per score, the latest wins. */
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "./driver/client";
import { type REVIEW_VERDICTS, safetyScores, scoreReviews } from "./schema";

/**
 * Stores `verdict` by `reviewer` on the project's score `scoreId` (replacing an earlier one,
 * with the new reviewer and time) in one statement. Returns the stored review, or null when
 * the project has no such score.
 */
export async function reviewScore(db: Db, projectId: string, scoreId: string, verdict: (typeof REVIEW_VERDICTS)[number], reviewer: string) {
  const [row] = await db
    .insert(scoreReviews)
    .select(
      db
        .select({
          score_id: safetyScores.id,
          request_id: safetyScores.request_id,
          project_id: safetyScores.project_id,
          scorer_name: safetyScores.scorer_name,
          verdict: sql`${verdict}`.as("verdict"),
          reviewer: sql`${reviewer}`.as("reviewer"),
          reviewed_at: sql`now()`.as("reviewed_at"),
        })
        .from(safetyScores)
        .where(and(eq(safetyScores.project_id, projectId), eq(safetyScores.id, scoreId))),
    )
    .onConflictDoUpdate({
      target: scoreReviews.score_id,
      set: { verdict: sql`excluded.verdict`, reviewer: sql`excluded.reviewer`, reviewed_at: sql`excluded.reviewed_at` },
    })
    .returning();
  return row ?? null;
}
