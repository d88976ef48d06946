/**
 * The re-scoring history of one score in the request drawer (docs/rescoring.md): each score a
 * re-score replaced, as "re-scored 2026-12-01: 4 -> 2, scorer_version model-...".
 */
import type { ScoreHistoryEntry } from "../../../../server/contract";
import type { Score } from "../types";

/** What a line needs of a score, current or replaced. */
type VersionedScore = Pick<ScoreHistoryEntry, "scorer_name" | "score_value" | "scorer_version" | "scored_at">;

const day = (iso: string) => iso.slice(0, 10);
const value = (v: number | null) => (v === null ? "unscored" : String(v));

/** The lines for `current`: one per replaced score, oldest first, each naming the score that replaced it. */
export function historyLines(current: VersionedScore, history: readonly VersionedScore[]): string[] {
  const chain = [...history.filter((h) => h.scorer_name === current.scorer_name), current];
  return chain
    .slice(1)
    .map((next, i) => `re-scored ${day(next.scored_at)}: ${value(chain[i]!.score_value)} -> ${value(next.score_value)}, scorer_version ${next.scorer_version}`);
}

/** The history of one current score (nothing when it was never re-scored). */
export function ScoreHistory({ score, history }: { score: Score; history: readonly ScoreHistoryEntry[] }) {
  const lines = historyLines(score, history);
  if (lines.length === 0) return null;
  return (
    <ul className="text-xs text-zinc-700 dark:text-zinc-300" aria-label={`History of ${score.scorer_name}`}>
      {lines.map((l) => (
        <li key={l}>{l}</li>
      ))}
    </ul>
  );
}
