/**
 * Hashed n-gram features for the learned scorers (the "hashing trick", Weinberger et al. 2009,
 * as in scikit-learn's HashingVectorizer). The same code produces the training matrix
 * (`scripts/train/export.ts`) and the features at inference, so trainer and worker agree bit
 * for bit.
 *
 * A call is given as segments, each a text with a namespace (`usr`, `sys`, `doc`, `cmp`...).
 * Per segment: lowercased word unigrams and bigrams, and character 3- to 5-grams over the
 * whitespace-collapsed text (punctuation kept: adversarial suffixes and markup live there).
 * Each n-gram gets a 32-bit FNV-1a base hash (salted by kind), mixed with its namespace's hash
 * by a multiplicative hash whose top `bits` bits select its column (`column`). Each distinct
 * n-gram of a segment has the value 1 + ln(count) (sublinear term frequency), L2-normalised
 * per segment, and the k segments of a namespace are summed over sqrt(k); n-grams whose
 * hashes share a column add up there. Indicator features (rule verdicts, structure) add 1 to
 * their column and are not normalised.
 *
 * A model reads either all of these (`"words+chars"`) or the word n-grams alone (`"words"`,
 * normalised among themselves): see `Grams`.
 *
 * Cost: the distinct n-grams of a text and their counts (`GramTable`) are computed once per
 * text and shared by every model of the call; a model then spends one hash, one weight read
 * and one multiply-add per distinct n-gram of its view.
 */

/** A piece of text and the namespace its n-grams are hashed into. */
export interface Segment {
  ns: string;
  text: string;
}

/** Sparse feature vector: parallel arrays of column indices and values (see `featurize`). */
export interface SparseVector {
  indices: Int32Array;
  values: Float64Array;
}

/**
 * The n-grams a model reads. `"words+chars"`: word unigrams and bigrams and character n-grams;
 * `"words"`: the word n-grams only. Character n-grams carry a source's surface style
 * (punctuation, markup, spelling), which is what catches adversarial suffixes and also what
 * fails to transfer to text written elsewhere: content_safety's leave-one-source-out mean F1
 * rose from 0.798 to 0.813 without them (bench/results/eval-loso.md).
 */
export type Grams = "words" | "words+chars";

/** Feature definition, recorded in each model's manifest. */
export interface FeatureSpec {
  /** Columns = 2^bits. */
  bits: number;
  /** Characters kept from the start and from the end of each segment (the middle is skipped). */
  headChars: number;
  tailChars: number;
  /** Smallest and largest character n-gram. */
  charMin: number;
  charMax: number;
}

/** The feature definition every model uses (kept in one place so trainer and worker agree). */
export const FEATURE_SPEC: FeatureSpec = { bits: 16, headChars: 2000, tailChars: 1000, charMin: 3, charMax: 5 };

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** 32-bit FNV-1a of `s`'s UTF-16 code units, continuing from `h`. */
export function fnv1a(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, FNV_PRIME);
  }
  return h >>> 0;
}

const SPACE = /\s+/g;

/** The part of a segment that is featurised: head and tail, bounded so cost is O(1) in size. */
export function clip(text: string, spec: FeatureSpec = FEATURE_SPEC): string {
  if (text.length <= spec.headChars + spec.tailChars) return text;
  return `${text.slice(0, spec.headChars)} ${text.slice(text.length - spec.tailChars)}`;
}

/** Column of an indicator feature (e.g. `rule:5`), in the same space as the n-grams. */
export function indicatorColumn(name: string, bits = FEATURE_SPEC.bits): number {
  return fnv1a(name, fnv1a("ind:")) >>> (32 - bits);
}

/**
 * Column of an n-gram's base hash in namespace `nsSeed` (= fnv1a(namespace)): the two are
 * mixed by a multiply with the golden-ratio constant (Knuth's multiplicative hashing), and the
 * top `bits` bits are kept.
 */
export function column(base: number, nsSeed: number, bits = FEATURE_SPEC.bits): number {
  return Math.imul(base ^ nsSeed, 0x9e3779b1) >>> (32 - bits);
}

const BIGRAM_SALT = 0x5bd1e995;
const CHAR_SALT = [0, 0, 0, 0x27d4eb2d, 0x165667b1, 0x61c88647];
const GOLDEN = 0x9e3779b1;

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(text[i]!);
}
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * The distinct n-grams of one featurised text (see `gramTable`): parallel arrays, one entry
 * per distinct base hash, in order of first occurrence.
 */
export interface GramTable {
  /** The featurised text (clipped, lowercased) that `start`/`end` index into. */
  text: string;
  /** Base hash of each distinct n-gram. */
  hashes: Int32Array;
  /** Occurrences of each. */
  counts: Uint32Array;
  /** Entries [0, words) are the word unigrams and bigrams (added first); the rest are character n-grams. */
  words: number;
  /** For each word n-gram (`words` entries), the span [start, end) of its first occurrence in `text`. */
  start: Int32Array;
  end: Int32Array;
  /** Unit-length feature values of the table (see `unitValues`), computed on first use. */
  values?: Float64Array;
  /** The same for the word n-grams alone (`words` entries). */
  wordValues?: Float64Array;
}

/**
 * Builds `GramTable`s: an open-addressing set of base hashes (linear probing, load <= 1/2)
 * whose slots hold entry index + 1 (0 = empty), and growable entry arrays; reused by every
 * build (one instance per isolate: scorers run synchronously) and cleared entry by entry.
 */
class TableBuilder {
  slots = new Int32Array(1 << 12);
  hashes = new Int32Array(1 << 11);
  counts = new Uint32Array(1 << 11);
  start = new Int32Array(1 << 11);
  end = new Int32Array(1 << 11);
  slotOf = new Int32Array(1 << 11);
  n = 0;
  shift = 20;

  /** Starts a table of at most `maxGrams` distinct n-grams. */
  begin(maxGrams: number): void {
    let size = 1 << 12;
    while (size < maxGrams * 2) size <<= 1;
    if (this.slots.length < size) this.slots = new Int32Array(size);
    this.shift = 32 - Math.log2(size);
    if (this.hashes.length < maxGrams) {
      this.hashes = new Int32Array(maxGrams);
      this.counts = new Uint32Array(maxGrams);
      this.start = new Int32Array(maxGrams);
      this.end = new Int32Array(maxGrams);
      this.slotOf = new Int32Array(maxGrams);
    }
    this.n = 0;
  }

  /** Counts one more occurrence of base hash `h` (span start/end of a word gram). */
  add(h: number, start: number, end: number): void {
    const slots = this.slots;
    const mask = (1 << (32 - this.shift)) - 1;
    let s = Math.imul(h, GOLDEN) >>> this.shift;
    for (;;) {
      const e = slots[s]!;
      if (e === 0) {
        const n = this.n++;
        this.hashes[n] = h;
        this.counts[n] = 1;
        this.start[n] = start;
        this.end[n] = end;
        this.slotOf[n] = s;
        slots[s] = n + 1;
        return;
      }
      if (this.hashes[e - 1] === h) {
        this.counts[e - 1]!++;
        return;
      }
      s = (s + 1) & mask;
    }
  }

  /** The table built since `begin`, copied out (its first `words` entries are word n-grams); clears the slots it used. */
  finish(text: string, words: number): GramTable {
    const n = this.n;
    for (let k = 0; k < n; k++) this.slots[this.slotOf[k]!] = 0;
    return {
      text,
      hashes: this.hashes.slice(0, n),
      counts: this.counts.slice(0, n),
      words,
      start: this.start.slice(0, words),
      end: this.end.slice(0, words),
    };
  }
}

const builder = new TableBuilder();
let codes = new Uint16Array(1 << 12);

/**
 * Calls `fn` with the base hash of each word unigram and bigram of `text` (already clipped and
 * lowercased; words are runs of Unicode letters and digits) and the span [start, end) of the
 * n-gram in `text`. Unigram: FNV-1a of the word; bigram: the previous word's hash mixed with
 * this one's.
 */
function forEachWordGram(text: string, fn: (hash: number, start: number, end: number) => void): void {
  let prev = 0;
  let prevStart = -1;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isWordChar(text, i)) {
      i++;
      continue;
    }
    const start = i;
    let h = FNV_OFFSET;
    while (i < n && isWordChar(text, i)) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, FNV_PRIME);
      i++;
    }
    fn(h >>> 0, start, i);
    if (prevStart >= 0) fn(Math.imul(prev ^ BIGRAM_SALT, FNV_PRIME) ^ h, prevStart, i);
    prev = h;
    prevStart = start;
  }
}

/**
 * Distinct n-grams of a featurised text with their counts: words, bigrams, character
 * 3-5-grams. The hot loop of every learned scorer: the set probe is written out inline (no
 * call per n-gram) over local references to the builder's arrays.
 */
function buildTable(text: string, spec: FeatureSpec): GramTable {
  // The whitespace-collapsed text between two spaces, as UTF-16 code units in a typed array
  // (reading a concatenated string code unit by code unit is several times slower).
  const collapsed = text.replace(SPACE, " ").trim();
  const len = collapsed.length + 2;
  if (codes.length < len) codes = new Uint16Array(len * 2);
  const flat = codes;
  flat[0] = 32;
  for (let i = 0; i < collapsed.length; i++) flat[i + 1] = collapsed.charCodeAt(i);
  flat[len - 1] = 32;
  const b = builder;
  b.begin(2 * text.length + 2 + len * (spec.charMax - spec.charMin + 1));
  forEachWordGram(text, (h, start, end) => b.add(h | 0, start, end));
  const words = b.n;
  const { slots, hashes, counts, slotOf } = b;
  const shift = b.shift;
  const mask = (1 << (32 - shift)) - 1;
  let n = b.n;
  const { charMin, charMax } = spec;
  for (let i = 0; i + charMin <= len; i++) {
    let h = FNV_OFFSET;
    for (let k = 0; k < charMax && i + k < len; k++) {
      h = Math.imul(h ^ flat[i + k]!, FNV_PRIME);
      if (k + 1 < charMin) continue;
      const g = h ^ CHAR_SALT[k + 1]!;
      let s = Math.imul(g, GOLDEN) >>> shift;
      for (;;) {
        const e = slots[s]!;
        if (e === 0) {
          hashes[n] = g;
          counts[n] = 1;
          slotOf[n] = s;
          slots[s] = ++n;
          break;
        }
        if (hashes[e - 1] === g) {
          counts[e - 1]!++;
          break;
        }
        s = (s + 1) & mask;
      }
    }
  }
  b.n = n;
  return b.finish(text, words);
}

/** The featurised part of a segment's text: clipped to head + tail, lowercased. */
function featureText(text: string, spec: FeatureSpec = FEATURE_SPEC): string {
  return clip(text, spec).toLowerCase();
}

// Tables per text, shared by the models of one call (several read the same user turn).
const TABLE_CACHE_MAX = 64;
let tableCache = new Map<string, GramTable>();

/** The distinct n-grams of a segment's text (featurised with `spec`), cached per text. */
export function gramTable(text: string, spec: FeatureSpec = FEATURE_SPEC): GramTable {
  let t = tableCache.get(text);
  if (!t) {
    if (tableCache.size >= TABLE_CACHE_MAX) tableCache = new Map();
    t = buildTable(featureText(text, spec), spec);
    tableCache.set(text, t);
  }
  return t;
}

// 1 + ln(c) for small counts (the values Math.log gives, looked up instead of recomputed).
const SUBLINEAR = Float64Array.from({ length: 1024 }, (_, c) => (c === 0 ? 0 : 1 + Math.log(c)));

/** Sublinear term frequency 1 + ln(count). */
function sublinear(c: number): number {
  return c < SUBLINEAR.length ? SUBLINEAR[c]! : 1 + Math.log(c);
}

/** 1 + ln(count) of the first `n` entries of `table`, over their L2 norm. */
function normalised(table: GramTable, n: number): Float64Array {
  const v = new Float64Array(n);
  let norm = 0;
  for (let k = 0; k < n; k++) {
    v[k] = sublinear(table.counts[k]!);
    norm += v[k]! * v[k]!;
  }
  const inv = 1 / (Math.sqrt(norm) || 1);
  for (let k = 0; k < n; k++) v[k]! *= inv;
  return v;
}

/**
 * The table's feature values on their own: 1 + ln(count) per distinct n-gram over the L2 norm
 * of them all (so a text's vector has unit length), for all n-grams or, with `"words"`, for
 * the word n-grams (the first `table.words` entries) alone. Computed on first use and kept
 * with the table: they do not depend on the namespace.
 */
export function unitValues(table: GramTable, grams: Grams = "words+chars"): Float64Array {
  if (grams === "words") return (table.wordValues ??= normalised(table, table.words));
  return (table.values ??= normalised(table, table.counts.length));
}

/** Growable output of `featurize`: columns and values, unsorted, a column possibly repeated. */
class Builder {
  indices = new Int32Array(4096);
  values = new Float64Array(4096);
  length = 0;
  reserve(n: number): void {
    if (this.length + n <= this.indices.length) return;
    const size = Math.max(this.indices.length * 2, this.length + n);
    const i = new Int32Array(size);
    i.set(this.indices.subarray(0, this.length));
    this.indices = i;
    const v = new Float64Array(size);
    v.set(this.values.subarray(0, this.length));
    this.values = v;
  }
  push(col: number, v: number): void {
    this.reserve(1);
    this.indices[this.length] = col;
    this.values[this.length++] = v;
  }
}

/**
 * The features of a call's segments, one segment at a time: `fn` gets the segment's distinct
 * n-gram base hashes (of the kinds `grams` names), their unit-length values (`unitValues`),
 * its namespace's seed (columns
 * are `column(hash, seed)`) and the namespace's scale 1/sqrt(k) when k segments share the
 * namespace (k disjoint texts still make a unit-length namespace; a long document does not
 * drown the prompt). Indicators are not included (`indicatorColumn`, value 1 each).
 * The n-gram table of a text is computed once and shared by every model that reads it; the
 * per-feature loop stays in the caller, free of calls.
 */
export function forEachSegment(
  segments: readonly Segment[],
  fn: (hashes: Int32Array, values: Float64Array, seed: number, scale: number) => void,
  grams: Grams = "words+chars",
  spec: FeatureSpec = FEATURE_SPEC,
): void {
  const perNs = new Map<string, number>();
  for (const seg of segments) if (seg.text) perNs.set(seg.ns, (perNs.get(seg.ns) ?? 0) + 1);
  for (const seg of segments) {
    if (!seg.text) continue;
    const table = gramTable(seg.text, spec);
    const hashes = grams === "words" ? table.hashes.subarray(0, table.words) : table.hashes;
    fn(hashes, unitValues(table, grams), fnv1a(seg.ns), 1 / Math.sqrt(perNs.get(seg.ns)!));
  }
}

/**
 * Feature vector of a call's segments (`forEachSegment`) plus indicator names (1 each), columns
 * unsorted and possibly repeated (n-grams whose hashes collide, the same n-gram in two segments
 * of a namespace): a linear score sums them either way; `canonical` sorts and merges for export.
 */
export function featurize(
  segments: readonly Segment[],
  indicators: readonly string[] = [],
  grams: Grams = "words+chars",
  spec: FeatureSpec = FEATURE_SPEC,
): SparseVector {
  const out = new Builder();
  forEachSegment(
    segments,
    (hashes, values, seed, scale) => {
      out.reserve(hashes.length);
      for (let k = 0; k < hashes.length; k++) out.push(column(hashes[k]!, seed, spec.bits), values[k]! * scale);
    },
    grams,
    spec,
  );
  for (const name of indicators) out.push(indicatorColumn(name, spec.bits), 1);
  return { indices: out.indices.subarray(0, out.length), values: out.values.subarray(0, out.length) };
}

/** The same vector with columns sorted ascending and repeated columns summed. */
export function canonical(x: SparseVector): SparseVector {
  const order = Array.from(x.indices.keys()).sort((a, b) => x.indices[a]! - x.indices[b]!);
  const indices: number[] = [];
  const values: number[] = [];
  for (const k of order) {
    const col = x.indices[k]!;
    if (indices.length > 0 && indices[indices.length - 1] === col) values[values.length - 1]! += x.values[k]!;
    else {
      indices.push(col);
      values.push(x.values[k]!);
    }
  }
  return { indices: Int32Array.from(indices), values: Float64Array.from(values) };
}
