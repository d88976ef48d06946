/**
 * `npm run eval -- <file>` on a file exported from triage (`GET /api/reviews/export`, format:
 * src/reviews/dataset.ts): besides the shipped scorers run on the file (scripts/eval.ts), how the
 * scores Sightline stored for these calls fared against the reviewers' labels, per scorer:
 * recall (confirmed calls labelled unsafe) and false-positive rate (false positives labelled
 * unsafe). The stored scores are the current ones when the file was exported (after any
 * re-score), so a re-score under a new policy or scorer version shows its effect here.
 *
 * Pure: the caller reads the file (this module also runs in workerd, in test/api/reviews.test.ts).
 */
import type { ReviewedItem } from "../../src/reviews/dataset";
import { SCORER_NAMES, type ScorerName } from "../../src/enums";
import { emptyConfusion, tally } from "../lib/confusion";

/** One scorer's stored scores against the reviews. `unscored` or no stored score counts as predicted safe. */
export interface ReviewedMetrics {
  scorer: ScorerName;
  items: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  /** tp / (tp + fn); null without confirmed calls. */
  recall: number | null;
  /** fp / (fp + tn); null without false positives. */
  fpr: number | null;
}

/** The items of a JSONL text when every line is a reviewed-calls export item; null otherwise (another eval file). */
export function reviewedItems(text: string): ReviewedItem[] | null {
  const lines = text.split("\n").filter((l) => l.trim());
  if (lines.length === 0) return null;
  const items = lines.map((l) => JSON.parse(l) as Partial<ReviewedItem>);
  const isExport = (it: Partial<ReviewedItem>) => typeof it.sightline === "object" && it.sightline !== null && typeof it.expected === "object";
  return items.every(isExport) ? (items as ReviewedItem[]) : null;
}

/** Per scorer with at least one label in `items`: the stored labels' confusion counts, recall and FPR. */
export function reviewedMetrics(items: readonly ReviewedItem[]): ReviewedMetrics[] {
  const rows: ReviewedMetrics[] = [];
  for (const scorer of SCORER_NAMES) {
    const c = emptyConfusion();
    for (const it of items) {
      const expected = it.expected[scorer];
      if (!expected) continue;
      tally(c, it.sightline.scores[scorer]?.score_label === "unsafe", expected === "unsafe");
    }
    const items_ = c.tp + c.fp + c.tn + c.fn;
    if (items_ === 0) continue;
    rows.push({
      scorer,
      items: items_,
      ...c,
      recall: c.tp + c.fn === 0 ? null : c.tp / (c.tp + c.fn),
      fpr: c.fp + c.tn === 0 ? null : c.fp / (c.fp + c.tn),
    });
  }
  return rows;
}

/**
 * What `npm run eval` prints for an export: `table` (Markdown, before the shipped scorers' table)
 * and `stored_scores` (the `--json` field). Null when `text` is no reviewed-calls export.
 */
export function reviewedReport(text: string): { table: string; stored_scores: ReviewedMetrics[] } | null {
  const items = reviewedItems(text);
  if (!items) return null;
  const rows = reviewedMetrics(items);
  const f = (v: number | null) => (v === null ? "n/a" : v.toFixed(3));
  const table = [
    `Stored scores against the reviews (${items.length} reviewed calls; confirmed = unsafe, false positive = safe):`,
    "",
    "| scorer | reviewed | TP | FP | TN | FN | recall | FPR |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.scorer} | ${r.items} | ${r.tp} | ${r.fp} | ${r.tn} | ${r.fn} | ${f(r.recall)} | ${f(r.fpr)} |`),
    "",
    "The shipped scorers on the same calls (bodies as exported: masked personal data is not found again by pii_detection):",
    "",
  ].join("\n");
  return { table, stored_scores: rows };
}
