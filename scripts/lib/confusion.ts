/**
 * Confusion counts of binary verdicts (`unsafe` is the positive class), shared by every table
 * `npm run eval` writes: the shipped scorers, the peers (`--peers`), the guard model (`--judge`)
 * and a triage export's stored scores.
 */

/** True/false positives and negatives of one judge on one set. */
export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

/** Counts at zero. */
export const emptyConfusion = (): Confusion => ({ tp: 0, fp: 0, tn: 0, fn: 0 });

/** Adds one verdict to `c`: `predicted` unsafe or not, `actual` label unsafe or not. */
export function tally(c: Confusion, predicted: boolean, actual: boolean): void {
  if (predicted && actual) c.tp++;
  else if (predicted) c.fp++;
  else if (actual) c.fn++;
  else c.tn++;
}
