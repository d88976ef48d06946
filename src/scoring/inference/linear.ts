/**
 * Inference of the learned scorers: a logistic-regression model (fitted by
 * `scripts/train/fit.py` with scikit-learn) over the hashed features of `features.ts`, with
 * int8-quantised weights and Platt calibration (Platt 1999) fitted on out-of-fold scores.
 * Cost: one multiply-add per non-zero feature.
 */
import { column, FEATURE_SPEC, forEachSegment, type Grams, indicatorColumn, type Segment, type SparseVector } from "./features";

/** A model file as written by the trainer (`src/scoring/scorers/<scorer>/weights.json`). */
export interface ModelFile {
  format: 1;
  scorer: string;
  bits: number;
  /** The n-grams the model was trained on (`Grams`; the scorer's `LearnedSpec.grams`). */
  grams: Grams;
  /** Real weight = int8 value x scale. */
  scale: number;
  intercept: number;
  /** Platt calibration: p = 1 / (1 + exp(-(a * z + b))), z the linear score. */
  calibration: { a: number; b: number };
  /** Calibrated probability from which the label is unsafe (Likert 4), chosen by the trainer for a
   * false-alarm budget on leave-one-source-out scores (scripts/train/fit.py). */
  threshold: number;
  /** Calibrated probability from which the verdict is Likert 5 (leave-one-source-out precision >= 95%; 1 = never). */
  threshold_high: number;
  /** 2^bits int8 weights, base64. */
  weights: string;
  /** Fixed inputs and the probability the trainer computed for them (pinned by a unit test). */
  pins: Array<{ id: string; probability: number }>;
}

/** A loaded model: decoded weights plus the file's numbers. */
export interface LinearModel {
  file: ModelFile;
  weights: Int8Array;
}

function decodeBase64(b64: string): Int8Array {
  const bin = atob(b64);
  const out = new Int8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = (bin.charCodeAt(i) << 24) >> 24;
  return out;
}

const GRAMS: readonly Grams[] = ["words", "words+chars"];

/**
 * Decodes a model file. Throws when its feature width does not match `FEATURE_SPEC` or its
 * n-gram kinds are unknown (a model trained with another feature definition would read the
 * wrong columns).
 */
export function loadModel(file: ModelFile): LinearModel {
  if (file.bits !== FEATURE_SPEC.bits) throw new Error(`model ${file.scorer}: ${file.bits} bits, features have ${FEATURE_SPEC.bits}`);
  if (!GRAMS.includes(file.grams)) throw new Error(`model ${file.scorer}: unknown n-gram kinds ${JSON.stringify(file.grams)}`);
  const weights = decodeBase64(file.weights);
  if (weights.length !== 1 << file.bits) throw new Error(`model ${file.scorer}: ${weights.length} weights, expected ${1 << file.bits}`);
  return { file, weights };
}

/** Lazily decoded model: the base64 is decoded on first use, keeping worker startup short. */
export function lazyModel(file: ModelFile): () => LinearModel {
  let model: LinearModel | undefined;
  return () => (model ??= loadModel(file));
}

/** Linear score z = intercept + w . x (x sparse). */
function linearScore(model: LinearModel, x: SparseVector): number {
  const { weights, file } = model;
  let z = 0;
  for (let k = 0; k < x.indices.length; k++) z += weights[x.indices[k]!]! * x.values[k]!;
  return file.intercept + z * file.scale;
}

/** Platt-calibrated probability of a linear score z, in [0, 1]. */
function calibrated(model: LinearModel, z: number): number {
  const { a, b } = model.file.calibration;
  return 1 / (1 + Math.exp(-(a * z + b)));
}

/** Calibrated probability of `unsafe` for a feature vector, in [0, 1]. */
export function probability(model: LinearModel, x: SparseVector): number {
  return calibrated(model, linearScore(model, x));
}

/**
 * The linear score of a view in parts, without building the feature vector: per segment (in
 * order; 0 for an empty one) the weighted sum of its n-gram values times its namespace's scale
 * 1/sqrt(k) (`forEachSegment`), that scale, and the indicators' weights. The linear score is
 * `intercept + file.scale * (sum of parts + indicators)` (`partsProbability`). Replacing one
 * segment by another text of the same namespace changes only that segment's part, which is
 * how windows are scored (./windows.ts).
 */
export function viewParts(
  model: LinearModel,
  segments: readonly Segment[],
  indicators: readonly string[],
): { parts: Float64Array; scales: Float64Array; indicators: number } {
  const { weights, file } = model;
  const bits = file.bits;
  const parts = new Float64Array(segments.length);
  const scales = new Float64Array(segments.length);
  // forEachSegment visits the non-empty segments in order.
  let i = 0;
  forEachSegment(
    segments,
    (hashes, values, seed, scale) => {
      while (!segments[i]!.text) i++;
      let zs = 0;
      for (let k = 0; k < hashes.length; k++) zs += weights[column(hashes[k]!, seed, bits)]! * values[k]!;
      parts[i] = zs * scale;
      scales[i++] = scale;
    },
    file.grams,
  );
  let ind = 0;
  for (const name of indicators) ind += weights[indicatorColumn(name, bits)]!;
  return { parts, scales, indicators: ind };
}

/**
 * Calibrated probability of a view's summed parts (`viewParts`): intercept + scale x sum, then
 * Platt. Over all parts of a view, the same value as
 * `probability(model, featurize(segments, indicators, model.file.grams))` up to the order of
 * floating-point additions, without building the feature vector.
 */
export function partsProbability(model: LinearModel, sum: number): number {
  return calibrated(model, model.file.intercept + sum * model.file.scale);
}
