/**
 * Labelled items of `../shared/eval/{train,dev}/<scorer>.jsonl` (format: ../shared/eval/README.md)
 * and their conversion into the call the scorer worker sees. Shared by `npm run eval` and
 * `npm run train`.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { JudgedLabel, ScorerName } from "../../src/enums";
export { toCall } from "../../src/scoring/item-call";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** One labelled call. */
export interface EvalItem {
  id: string;
  source: string;
  request_body: unknown;
  response_body: unknown;
  expected: Partial<Record<ScorerName, JudgedLabel>>;
}

/** The shared evaluation folder: `$SIGHTLINE_EVAL_DIR` or `../shared/eval` beside the repository. */
export function evalDir(): string {
  const dir = process.env.SIGHTLINE_EVAL_DIR ?? resolve(ROOT, "../shared/eval");
  if (!existsSync(dir)) throw new Error(`evaluation data not found at ${dir} (set SIGHTLINE_EVAL_DIR)`);
  return dir;
}

/** Items of one JSONL file, in file order. */
export function readItems(file: string): EvalItem[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as EvalItem);
}

/** Items of `<split>/<scorer>.jsonl` under the evaluation folder ([] when the file is missing). */
export function splitItems(split: "train" | "dev", scorer: ScorerName): EvalItem[] {
  const file = join(evalDir(), split, `${scorer}.jsonl`);
  return existsSync(file) ? readItems(file) : [];
}

/**
 * Ordinary traffic (`traffic/{train,dev}.jsonl`, ../shared/eval/traffic/README.md): everyday calls
 * labelled safe for every scorer; [] when the file is missing.
 */
export function trafficItems(split: "train" | "dev"): EvalItem[] {
  const file = trafficFile(split);
  return existsSync(file) ? readItems(file) : [];
}

/** Path of `traffic/<split>.jsonl` under the evaluation folder. */
export function trafficFile(split: "train" | "dev"): string {
  return join(evalDir(), "traffic", `${split}.jsonl`);
}

/**
 * Source family of an item for leave-one-source-out validation: the id prefix before the first `:`
 * (SOURCES.md's source key), with a twin's `_clean`/`_attack`/`_poisoned` suffix removed so
 * twins are left out together. Ordinary traffic (`traffic_*`) is one family, `traffic`: left out
 * as a whole, it asks how a scorer trained without any ordinary call treats one.
 */
export function sourceFamily(id: string): string {
  const key = id.includes(":") ? id.slice(0, id.indexOf(":")) : id;
  if (key.startsWith("traffic_")) return "traffic";
  return key.replace(/_(?:clean|attack|poisoned)$/, "");
}
