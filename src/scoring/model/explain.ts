/**
 * The words behind a model's verdict, for the rationale: the word unigrams and bigrams of the
 * call whose weight x value pushed the score up most. Only purely alphabetic n-grams are
 * named, so digits, e-mail addresses, keys and other values never reach a rationale.
 */
import { canonical, column, featureText, fnv1a, forEachWordGram, type Segment, type SparseVector } from "./features";
import type { LinearModel } from "./linear";

const NAMEABLE = /^[a-z]{2,24}(?: [a-z]{2,24})?$/;

/** Function words: they weigh in the model but explain nothing to a reader. */
const FUNCTION_WORDS = new Set(
  "a an the and or but of to in on at by for with from as is are was were be been being it its this that these those i you he she we they me my your his her our their them him us do does did can could would should will shall may might must not no so if then than there here what which who whom how why when where all any some such".split(" "),
);

function explains(gram: string): boolean {
  return NAMEABLE.test(gram) && gram.split(" ").some((w) => !FUNCTION_WORDS.has(w));
}

function valueAt(x: SparseVector, col: number): number {
  let lo = 0;
  let hi = x.indices.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const c = x.indices[mid]!;
    if (c === col) return x.values[mid]!;
    if (c < col) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Up to `k` n-grams with the largest positive contribution to the linear score, heaviest first. */
export function topGrams(model: LinearModel, segments: readonly Segment[], vector: SparseVector, k = 3): string[] {
  const x = canonical(vector);
  const best = new Map<string, number>();
  for (const seg of segments) {
    const text = featureText(seg.text);
    const seed = fnv1a(seg.ns);
    forEachWordGram(text, (h, start, end) => {
      const col = column(h, seed);
      const w = model.weights[col]!;
      if (w <= 0) return;
      const contribution = w * valueAt(x, col);
      const g = text.slice(start, end).replace(/[^\p{L}\p{N}]+/gu, " ");
      if (!explains(g)) return;
      if (contribution > (best.get(g) ?? 0)) best.set(g, contribution);
    });
  }
  return [...best.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, k)
    .map(([g]) => g);
}
