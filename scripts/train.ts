/**
 * `npm run train`: fits the learned scorers' models from `../shared/eval/{train,dev}` and the
 * ordinary calls of `../shared/eval/traffic/train.jsonl`.
 *
 *   npm run train                 export features, validate (k-fold + leave-one-source-out, which
 *                                 set the operating points), fit, write
 *                                 src/scoring/scorers/<scorer>/weights.json + manifest.json
 *   npm run train -- --check      the same into a temporary folder; exits 1
 *                                 when a model file differs from the committed one (byte for byte)
 *   npm run train -- --scorers a,b
 *
 * Fitting runs in Debian's Python with scikit-learn (`python3-sklearn`); when it is missing
 * and we run as root, it is installed with apt-get. Deterministic: the same data gives the
 * same bytes (fixed seeds, liblinear, sorted JSON).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { FEATURE_SPEC } from "../src/scoring/inference/features";
import { LEARNED_SPECS, type LearnedName } from "../src/scoring/specs";
import { exportScorer, TRAIN_DIR } from "./train/export";

/** Where the committed models live. */
export const MODELS_DIR = join(import.meta.dirname, "../src/scoring/scorers");

/** A scorer's model file under a models folder (its room's `weights.json`). */
export const modelFile = (dir: string, name: string) => join(dir, name, "weights.json");
const FIT = join(import.meta.dirname, "train/fit.py");

/** A Python with scikit-learn: Debian's /usr/bin/python3 (installing python3-sklearn if needed). */
export function sklearnPython(): string {
  for (const py of ["/usr/bin/python3", "python3"]) {
    if (spawnSync(py, ["-c", "import sklearn"], { stdio: "ignore" }).status === 0) return py;
  }
  if (process.getuid?.() === 0) {
    console.log("installing python3-sklearn (Debian) ...");
    spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
    const r = spawnSync("apt-get", ["install", "-y", "-qq", "python3-sklearn"], {
      stdio: "inherit",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    });
    if (r.status === 0 && spawnSync("/usr/bin/python3", ["-c", "import sklearn"]).status === 0) return "/usr/bin/python3";
  }
  throw new Error("scikit-learn not found: apt-get install python3-sklearn");
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Runs export + fit for `names` into `modelsDir`; returns the fitter's metrics per scorer. */
export function train(names: LearnedName[], modelsDir: string, opts: { finalOnly?: boolean } = {}): Record<string, Record<string, unknown>> {
  const py = sklearnPython();
  for (const name of names) {
    const t0 = performance.now();
    const n = exportScorer(name);
    console.log(`exported ${name}: ${n} items (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  }
  const args = [FIT, TRAIN_DIR, modelsDir, "--scorers", names.join(",")];
  if (opts.finalOnly) args.push("--final-only");
  const r = spawnSync(py, args, { stdio: "inherit" });
  if (r.status !== 0) throw new Error(`fit.py exited with ${r.status}`);
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of names) out[name] = JSON.parse(readFileSync(join(TRAIN_DIR, `${name}.metrics.json`), "utf8")) as Record<string, unknown>;
  return out;
}

function sklearnVersion(py: string): string {
  return spawnSync(py, ["-c", "import sklearn, numpy, scipy; print(sklearn.__version__, numpy.__version__, scipy.__version__)"], {
    encoding: "utf8",
  }).stdout.trim();
}

/** The manifest: per model, data digest, features, hyper-parameters, validation metrics, file digest. */
function writeManifest(metrics: Record<string, Record<string, unknown>>): void {
  const file = join(MODELS_DIR, "manifest.json");
  const previous = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as { models: Record<string, unknown> }).models : {};
  const [sk, np, sp] = sklearnVersion(sklearnPython()).split(" ");
  const models: Record<string, unknown> = { ...previous };
  for (const [name, m] of Object.entries(metrics)) {
    const grams = LEARNED_SPECS[name as LearnedName].grams;
    models[name] = {
      file: `${name}/weights.json`,
      model_sha256: sha256(modelFile(MODELS_DIR, name)),
      training_data: {
        files: [`train/${name}.jsonl`, `dev/${name}.jsonl`, "traffic/train.jsonl"],
        sha256: m.data_sha256,
        items: m.items,
        unsafe: m.unsafe,
        safe: m.safe,
      },
      features: {
        ...FEATURE_SPEC,
        hashing: "32-bit FNV-1a seeded by namespace and n-gram kind, top `bits` bits",
        grams,
        ngrams: grams === "words" ? "word unigrams and bigrams" : "word unigrams and bigrams; character 3-5-grams of whitespace-collapsed text",
        values:
          "1 + ln(count) per distinct n-gram, L2-normalised per text, the k texts of a namespace summed over sqrt(k), colliding n-grams summed in their column; indicators (rule verdict, structure) add 1",
        view: `src/scoring/scorers/${name}/view.ts`,
      },
      hyper_parameters: m.hyper_parameters,
      calibration: m.calibration,
      threshold: m.threshold,
      threshold_high: m.threshold_high,
      nonzero_weights: m.nonzero_weights,
      kfold: m.kfold,
      leave_one_source_out: m.loso,
      leave_one_source_out_budgets: m.loso_curve,
    };
  }
  const manifest = { generated_by: "npm run train", libraries: { "scikit-learn": sk, numpy: np, scipy: sp }, models };
  writeFileSync(file, `${JSON.stringify(manifest, null, 1)}\n`);
}

function main(): void {
  const { values } = parseArgs({ options: { check: { type: "boolean" }, scorers: { type: "string" } } });
  const names = (values.scorers ? values.scorers.split(",") : Object.keys(LEARNED_SPECS)) as LearnedName[];
  if (values.check) {
    const dir = mkdtempSync(join(tmpdir(), "sightline-models-"));
    train(names, dir, { finalOnly: true });
    let same = true;
    for (const name of names) {
      const fresh = sha256(modelFile(dir, name));
      const committed = existsSync(modelFile(MODELS_DIR, name)) ? sha256(modelFile(MODELS_DIR, name)) : "(missing)";
      console.log(`${name}: fresh ${fresh.slice(0, 16)} committed ${committed.slice(0, 16)} ${fresh === committed ? "identical" : "DIFFERENT"}`);
      same &&= fresh === committed;
    }
    process.exit(same ? 0 : 1);
  }
  const metrics = train(names, MODELS_DIR);
  writeManifest(metrics);
  console.log(`models and manifest written to ${MODELS_DIR}`);
}

if (process.argv[1]?.endsWith("train.ts")) main();
