/**
 * The words behind a model's verdict, for the rationale: the word unigrams and bigrams of the
 * call whose weight x value pushed the score up most. Only purely alphabetic n-grams are
 * named, so digits, e-mail addresses, keys and other values never reach a rationale.
 */
import { column, featureText, fnv1a, forEachWordGram, type Segment, type SparseVector } from "./features";
import type { LinearModel } from "./linear";

const NAMEABLE = /^[a-z]{2,24}(?: [a-z]{2,24})?$/;

/** Function words: they weigh in the model but explain nothing to a reader. */
const FUNCTION_WORDS = new Set(
  "a an the and or but of to in on at by for with from as is are was were be been being it its this that these those i you he she we they me my your his her our their them him us do does did can could would should will shall may might must not no so if then than there here what which who whom how why when where all any some such".split(
    " ",
  ),
);

function explains(gram: string): boolean {
  return NAMEABLE.test(gram) && gram.split(" ").some((w) => !FUNCTION_WORDS.has(w));
}

// Dense view of the feature vector while explaining (filled, read, then cleared: O(features)).
let dense = new Float32Array(0);

/** How many of the heaviest n-grams are materialised as strings before filtering. */
const CANDIDATES = 32;

/** Up to `k` n-grams with the largest positive contribution to the linear score, heaviest first. */
export function topGrams(model: LinearModel, segments: readonly Segment[], x: SparseVector, k = 3): string[] {
  if (dense.length !== model.weights.length) dense = new Float32Array(model.weights.length);
  for (let i = 0; i < x.indices.length; i++) dense[x.indices[i]!]! += x.values[i]!;
  // The CANDIDATES largest contributions (weight x value), kept sorted descending; strings are
  // built only for these.
  const top: Array<{ c: number; col: number; text: string; start: number; end: number }> = [];
  for (const seg of segments) {
    const text = featureText(seg.text);
    const seed = fnv1a(seg.ns);
    forEachWordGram(text, (h, start, end) => {
      const col = column(h, seed);
      const w = model.weights[col]!;
      if (w <= 0) return;
      const c = w * dense[col]!;
      if (top.length === CANDIDATES && c <= top[CANDIDATES - 1]!.c) return;
      if (top.some((t) => t.col === col)) return;
      let i = top.length;
      while (i > 0 && top[i - 1]!.c < c) i--;
      top.splice(i, 0, { c, col, text, start, end });
      if (top.length > CANDIDATES) top.pop();
    });
  }
  for (let i = 0; i < x.indices.length; i++) dense[x.indices[i]!] = 0;
  const out: string[] = [];
  for (const t of top) {
    const g = t.text.slice(t.start, t.end).replace(/[^\p{L}\p{N}]+/gu, " ");
    if (explains(g) && !out.includes(g)) out.push(g);
    if (out.length === k) break;
  }
  return out;
}
