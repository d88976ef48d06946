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
 * by a multiplicative hash whose top `bits` bits select its column (`column`). Values are
 * sublinear term frequencies (1 + ln count), L2-normalised per namespace; indicator features
 * (rule verdicts, structure) add 1 to their column and are not normalised.
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
export const FEATURE_SPEC: FeatureSpec = { bits: 18, headChars: 6000, tailChars: 2000, charMin: 3, charMax: 5 };

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
function clip(text: string, spec: FeatureSpec): string {
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

function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(text[i]!);
}
const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Calls `fn` with the base hash of each word unigram and bigram of `text` (already clipped and
 * lowercased; words are runs of Unicode letters and digits) and the span [start, end) of the
 * n-gram in `text`. Numbers only, no allocation per n-gram: this is the hot loop of every
 * learned scorer. Unigram: FNV-1a of the word; bigram: the previous word's hash mixed with
 * this one's.
 */
export function forEachWordGram(text: string, fn: (hash: number, start: number, end: number) => void): void {
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

/** Base hashes of every n-gram of a featurised text: words, bigrams, character 3-5-grams. */
function gramHashes(text: string, spec: FeatureSpec): Int32Array {
  const flat = ` ${text.replace(SPACE, " ").trim()} `;
  const out = new Int32Array(text.length + 8 + flat.length * (spec.charMax - spec.charMin + 1));
  let k = 0;
  forEachWordGram(text, (h) => {
    out[k++] = h;
  });
  for (let i = 0; i + spec.charMin <= flat.length; i++) {
    let h = FNV_OFFSET;
    for (let n = 0; n < spec.charMax && i + n < flat.length; n++) {
      h ^= flat.charCodeAt(i + n);
      h = Math.imul(h, FNV_PRIME);
      if (n + 1 >= spec.charMin) out[k++] = h ^ CHAR_SALT[n + 1]!;
    }
  }
  return out.subarray(0, k);
}

/** The featurised part of a segment's text: clipped to head + tail, lowercased. */
export function featureText(text: string, spec: FeatureSpec = FEATURE_SPEC): string {
  return clip(text, spec).toLowerCase();
}

// Base hashes per text, shared by the models of one call (several read the same user turn).
const HASH_CACHE_MAX = 64;
let hashCache = new Map<string, Int32Array>();

function cachedGramHashes(text: string, spec: FeatureSpec): Int32Array {
  let h = hashCache.get(text);
  if (!h) {
    if (hashCache.size >= HASH_CACHE_MAX) hashCache = new Map();
    h = gramHashes(featureText(text, spec), spec);
    hashCache.set(text, h);
  }
  return h;
}

// Scratch accumulator shared by calls: scorers run synchronously, one call at a time per isolate.
let scratch = new Uint32Array(0); // n-gram counts (exact integers; 1 MiB at 2^18 columns, kinder to caches than doubles)
let touched = new Int32Array(1024);

function ensureScratch(bits: number): void {
  if (scratch.length !== 1 << bits) scratch = new Uint32Array(1 << bits);
}

/** Growable output of `featurize`: columns and values, unsorted, a column possibly repeated. */
class Builder {
  indices = new Int32Array(4096);
  values = new Float64Array(4096);
  length = 0;
  push(col: number, v: number): void {
    if (this.length === this.indices.length) {
      const i = new Int32Array(this.length * 2);
      i.set(this.indices);
      this.indices = i;
      const v2 = new Float64Array(this.length * 2);
      v2.set(this.values);
      this.values = v2;
    }
    this.indices[this.length] = col;
    this.values[this.length++] = v;
  }
}

/** Accumulates one namespace's n-grams into `out`, L2-normalised on their own. */
function addNamespace(ns: string, segments: readonly Segment[], spec: FeatureSpec, out: Builder): void {
  const shift = 32 - spec.bits;
  const seed = fnv1a(ns);
  let nTouched = 0;
  for (const seg of segments) {
    const hashes = cachedGramHashes(seg.text, spec);
    if (touched.length < nTouched + hashes.length) {
      const grown = new Int32Array((nTouched + hashes.length) * 2);
      grown.set(touched.subarray(0, nTouched));
      touched = grown;
    }
    for (let k = 0; k < hashes.length; k++) {
      const col = Math.imul(hashes[k]! ^ seed, 0x9e3779b1) >>> shift;
      const v = scratch[col]!;
      if (v === 0) touched[nTouched++] = col;
      scratch[col] = v + 1;
    }
  }
  let norm = 0;
  for (let k = 0; k < nTouched; k++) {
    const v = 1 + Math.log(scratch[touched[k]!]!);
    norm += v * v;
  }
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < nTouched; k++) {
    const col = touched[k]!;
    out.push(col, (1 + Math.log(scratch[col]!)) / norm);
    scratch[col] = 0;
  }
}

/**
 * Feature vector of a call's segments plus indicator names. Each namespace is L2-normalised
 * on its own (a long document does not drown the prompt), then each indicator adds 1 to its
 * column. Columns come unsorted and may repeat (a hash collision across namespaces): a
 * linear score sums them either way; `canonical` sorts and merges for export.
 * Cost: linear in the clipped text (at most head + tail characters per segment); the n-gram
 * hashes of a text are computed once and shared by every model that reads it.
 */
export function featurize(segments: readonly Segment[], indicators: readonly string[] = [], spec: FeatureSpec = FEATURE_SPEC): SparseVector {
  ensureScratch(spec.bits);
  const byNs = new Map<string, Segment[]>();
  for (const seg of segments) {
    if (!seg.text) continue;
    const list = byNs.get(seg.ns);
    if (list) list.push(seg);
    else byNs.set(seg.ns, [seg]);
  }
  const out = new Builder();
  for (const [ns, list] of byNs) addNamespace(ns, list, spec, out);
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
