/**
 * Step 1 of `npm run train`: turns the labelled items of `../shared/eval/{train,dev}` and the
 * ordinary calls of `../shared/eval/traffic/train.jsonl` (safe for every scorer: negatives for
 * every model; `traffic/dev.jsonl` stays held out for `npm run eval` and the traffic test) into
 * the feature matrix the fitter reads, with the same view and feature code the worker runs.
 *
 * Writes, per learned scorer, under `.data/train/`:
 * - `<scorer>.svm`: one line per item, `label col:value ...` (svmlight, 0-based columns);
 * - `<scorer>.meta.json`: per line `{id, family, split, hard, scored, decides}` (split `train`, `dev` or
 *   `traffic`; hard: a weight-5 rule fired; decides: false when the worker would not let the
 *   model raise the verdict: its view holds no text (no n-gram a rationale could name, as for
 *   data_poisoning's indicator-only view) and no weight-4 rule fired (src/scoring/learned.ts);
 *   scored: false when the model does not judge
 *   the call: the rules leave it `unscored`, or `LearnedSpec.judges` says no),
 *   the SHA-256 of the input files, the feature width `bits` and the n-gram kinds `grams`;
 * - `<scorer>.pins.svm` / `.pins.json`: the pinned inputs of `pins.ts`;
 * - with `LearnedSpec.windows`, `<scorer>.windows.svm`: one line per window view of a scored
 *   item (src/scoring/inference/windows.ts), the meta's `window_items` giving each line's item
 *   (0-based line of `<scorer>.svm`). Not fitted on: the fitter scores them and keeps each
 *   item's highest probability, as the worker does.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { canonical, FEATURE_SPEC, featurize, type SparseVector } from "../../src/scoring/inference/features";
import { isHardRule, type LearnedSpec, modelJudges } from "../../src/scoring/inference/specs";
import { windowViews } from "../../src/scoring/inference/windows";
import { LEARNED_SPECS, type LearnedName, PINS } from "../../src/scoring/specs";
import type { ScorableCall } from "../../src/scoring/types";
import { type EvalItem, evalDir, sourceFamily, splitItems, toCall, trafficFile, trafficItems } from "../lib/eval-items";

/** Output folder of the intermediate training files (git-ignored). */
export const TRAIN_DIR = join(import.meta.dirname, "../../.data/train");

function line(label: number, x: SparseVector): string {
  let s = String(label);
  for (let k = 0; k < x.indices.length; k++) s += ` ${x.indices[k]}:${x.values[k]!.toPrecision(10)}`;
  return s;
}

function features(name: LearnedName, call: ScorableCall): { x: SparseVector; windows: SparseVector[]; hard: boolean; scored: boolean; decides: boolean } {
  const spec: LearnedSpec = LEARNED_SPECS[name];
  const rule = spec.rules(call);
  const scored = modelJudges(spec, call, rule);
  // Features of every call the rules score (pins included); `scored` keeps the ones the model
  // does not judge out of the fit.
  const view = rule.score_value !== null ? spec.view(call, rule) : { segments: [], indicators: [] };
  const vector = (v: typeof view) => canonical(featurize(v.segments, v.indicators, spec.grams));
  const windows = scored && spec.windows ? windowViews(view, spec.windows).map(vector) : [];
  const decides = (rule.score_value ?? 0) >= 4 || view.segments.some((seg) => seg.text.length > 0);
  return { x: vector(view), windows, hard: isHardRule(rule), scored, decides };
}

/** Exports one scorer; returns the number of items. */
export function exportScorer(name: LearnedName): number {
  const lines: string[] = [];
  const windowLines: string[] = [];
  const windowItems: number[] = [];
  const meta: Array<{ id: string; family: string; split: string; hard: boolean; scored: boolean; decides: boolean }> = [];
  const digest = createHash("sha256");
  const add = (split: string, items: readonly EvalItem[]) => {
    for (const item of items) {
      const label = item.expected[name];
      if (label !== "safe" && label !== "unsafe") continue;
      const { x, windows, hard, scored, decides } = features(name, toCall(item));
      for (const w of windows) {
        windowLines.push(line(label === "unsafe" ? 1 : 0, w));
        windowItems.push(lines.length);
      }
      lines.push(line(label === "unsafe" ? 1 : 0, x));
      meta.push({ id: item.id, family: sourceFamily(item.id), split, hard, scored, decides });
    }
  };
  for (const split of ["train", "dev"] as const) {
    digest.update(readFileSync(join(evalDir(), split, `${name}.jsonl`)));
    add(split, splitItems(split, name));
  }
  digest.update(readFileSync(trafficFile("train")));
  add("traffic", trafficItems("train"));
  mkdirSync(TRAIN_DIR, { recursive: true });
  writeFileSync(join(TRAIN_DIR, `${name}.svm`), `${lines.join("\n")}\n`);
  const windowFile = join(TRAIN_DIR, `${name}.windows.svm`);
  if (windowLines.length > 0) writeFileSync(windowFile, `${windowLines.join("\n")}\n`);
  else rmSync(windowFile, { force: true });
  writeFileSync(
    join(TRAIN_DIR, `${name}.meta.json`),
    JSON.stringify({
      data_sha256: digest.digest("hex"),
      bits: FEATURE_SPEC.bits,
      grams: LEARNED_SPECS[name].grams,
      fit: LEARNED_SPECS[name].fit,
      budget: LEARNED_SPECS[name].budget,
      items: meta,
      window_items: windowItems,
    }),
  );
  const pins = PINS[name].map((p) => ({ id: p.id, ...features(name, p.call) }));
  writeFileSync(join(TRAIN_DIR, `${name}.pins.svm`), `${pins.map((p) => line(0, p.x)).join("\n")}\n`);
  writeFileSync(join(TRAIN_DIR, `${name}.pins.json`), JSON.stringify(pins.map((p) => ({ id: p.id, hard: p.hard }))));
  return lines.length;
}

if (process.argv[1]?.endsWith("export.ts")) {
  const only = process.argv.slice(2);
  for (const name of Object.keys(LEARNED_SPECS) as LearnedName[]) {
    if (only.length > 0 && !only.includes(name)) continue;
    const t0 = performance.now();
    const n = exportScorer(name);
    console.log(`exported ${name}: ${n} items in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
}
