/**
 * The words behind a model's verdict, for the rationale: the word unigrams and bigrams of the
 * call whose weight x value pushed the score up most. Only purely alphabetic n-grams of prose
 * are named (not a word of an e-mail address, URL or dotted name), so digits, addresses, keys
 * and other values never reach a rationale.
 */
import { column, fnv1a, gramTable, type Segment, unitValues } from "./features";
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

/** Inside an address, a URL, a number or a dotted name (`jane.doe@example.org`, `a.b/c`). */
const NOT_PROSE = /[@/:\d]|\p{L}\.\p{L}/u;

/**
 * Whether the whitespace-delimited words around `text[start, end)` are prose: a word of an
 * e-mail address or a URL is alphabetic on its own ("jane" of jane.doe@example.org) but names
 * a person or a site, so it is never named.
 */
function inProse(text: string, start: number, end: number): boolean {
  let a = start;
  while (a > 0 && !/\s/.test(text[a - 1]!)) a--;
  let b = end;
  while (b < text.length && !/\s/.test(text[b]!)) b++;
  return !NOT_PROSE.test(text.slice(a, b));
}

/** How many of the heaviest n-grams are materialised as strings before filtering. */
const CANDIDATES = 32;

/**
 * Up to `k` n-grams with the largest positive contribution (weight x value) to the linear
 * score, heaviest first. The value is the n-gram's in its own segment (`unitValues`), its
 * feature value whenever the segment has its namespace to itself.
 */
export function topGrams(model: LinearModel, segments: readonly Segment[], k = 3): string[] {
  // The CANDIDATES largest contributions (weight x value), kept sorted descending; strings are
  // built only for these.
  const top: Array<{ c: number; col: number; text: string; start: number; end: number }> = [];
  for (const seg of segments) {
    if (!seg.text) continue;
    // The word n-grams of the segment, from the table its features were built from.
    const table = gramTable(seg.text);
    const { text, hashes, start, end, words } = table;
    const values = unitValues(table, model.file.grams);
    const seed = fnv1a(seg.ns);
    for (let k = 0; k < words; k++) {
      const col = column(hashes[k]!, seed);
      const w = model.weights[col]!;
      if (w <= 0) continue;
      const c = w * values[k]!;
      if (top.length === CANDIDATES && c <= top[CANDIDATES - 1]!.c) continue;
      if (top.some((t) => t.col === col)) continue;
      let i = top.length;
      while (i > 0 && top[i - 1]!.c < c) i--;
      top.splice(i, 0, { c, col, text, start: start[k]!, end: end[k]! });
      if (top.length > CANDIDATES) top.pop();
    }
  }
  const out: string[] = [];
  for (const t of top) {
    const g = t.text.slice(t.start, t.end).replace(/[^\p{L}\p{N}]+/gu, " ");
    if (explains(g) && inProse(t.text, t.start, t.end) && !out.includes(g)) out.push(g);
    if (out.length === k) break;
  }
  return out;
}
