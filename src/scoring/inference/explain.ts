/**
 * The words behind a model's verdict, for the rationale: the word unigrams and bigrams of the
 * call whose weight x value pushed the score up most. Only purely alphabetic n-grams of prose
 * are named (not a word of an e-mail address, URL or dotted name), so digits, addresses, keys
 * and other values never reach a rationale.
 */
import { column, fnv1a, gramTable, type Segment, unitValues } from "./features";
import type { LinearModel } from "./linear";

const NAMEABLE = /^[a-z]{2,24}(?: [a-z]{2,24})?$/;

/**
 * Function words: they weigh in a model but explain nothing to a reader. scikit-learn's
 * `ENGLISH_STOP_WORDS` (the Glasgow Information Retrieval Group's stop list) without its content
 * words (fire, system, describe, show, give, take, ...), plus contractions as the word n-grams
 * split them ("dont", "im") and conversational fillers.
 */
const FUNCTION_WORDS = new Set(
  "a about above across after afterwards again against all almost alone along already also although always am among amongst amoungst an and another any anyhow anyone anything anyway anywhere are arent around as at be became because become becomes becoming been before beforehand behind being below beside besides between beyond both but by can cannot cant could couldnt did didnt do does doesnt done dont down due during each eight either eleven else elsewhere enough even ever every everyone everything everywhere except few fifteen fifty first five for former formerly forty four from further got had has hasnt have he hence her here hereafter hereby herein hereupon hers herself him himself his how however hundred i id if ill im in indeed into is isnt it its itself ive just last latter latterly least less lets like many may me meanwhile might mine more moreover most mostly much must my myself namely neither never nevertheless next nine no nobody none noone nor not nothing now nowhere of off often ok okay on once one only onto or other others otherwise our ours ourselves out over own per perhaps please rather really same seem seemed seeming seems several shall she should shouldnt since six sixty so some somehow someone something sometime sometimes somewhere still such ten than that the their them themselves then thence there thereafter thereby therefore therein thereupon these they third this those though three through throughout thru thus to together too toward towards twelve twenty two under until up upon us very via was wasnt we well were werent what whatever when whence whenever where whereafter whereas whereby wherein whereupon wherever whether which while whither who whoever whole whom whose why will with within without wont would wouldnt yeah yes yet you youll your youre yours yourself yourselves youve".split(
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
