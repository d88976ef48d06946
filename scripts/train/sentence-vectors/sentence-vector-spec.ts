/**
 * Constants shared by the token-table build (`scripts/train/token-table.ts`) and the runtime
 * pooling (`sentence-vector.ts`), kept apart so the build can import them before the table it
 * generates exists.
 */

/**
 * SIF smoothing constant a in the piece weight a / (a + p(w)) (Arora, Liang & Ma 2017, "A Simple
 * but Tough-to-Beat Baseline for Sentence Embeddings"; they report a in 1e-4..1e-3 works well).
 */
export const SIF_A = 1e-3;

/**
 * Characters of a text that are pooled: the first 2,000 and the last 1,000 (joined by a space),
 * the same bounds as `FEATURE_SPEC` of features.ts, so cost is O(1) in the text's size.
 */
export const VECTOR_CLIP = { headChars: 2000, tailChars: 1000 } as const;

/** The part of `text` that is tokenised and pooled (see `VECTOR_CLIP`). */
export function clipForVector(text: string): string {
  const { headChars, tailChars } = VECTOR_CLIP;
  if (text.length <= headChars + tailChars) return text;
  return `${text.slice(0, headChars)} ${text.slice(text.length - tailChars)}`;
}
