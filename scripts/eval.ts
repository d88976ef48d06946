/**
 * Scorer evaluation on labelled JSONL (see ../shared/eval/README.md for the format).
 *
 *   npm run eval -- <file-or-folder> [--json] [--scorer <name>] [--show-errors <n>]
 *
 * Each item is turned into a ScorableCall exactly as the worker sees a logged row (model from
 * request_body.model, provider "openai", tokens from response_body.usage, cost 0, latency 0)
 * and scored with `scoreCall`. For a folder, `<scorer>.jsonl` is judged on expected[<scorer>]
 * only; for a single file named after a scorer likewise, otherwise on every expected key.
 * `unscored` counts as predicted safe. Prints per scorer: items, TP, FP, TN, FN, precision,
 * recall, F1 and false-positive rate. `--show-errors n` prints up to n misclassified ids per
 * scorer with their rationale (never the item text). Always exits 0.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { scoreCall } from "../src/scoring/registry";
import { SCORER_NAMES, type ScorableCall, type ScorerName } from "../src/scoring/types";

interface Item {
  id: string;
  request_body: unknown;
  response_body: unknown;
  expected: Partial<Record<ScorerName, "safe" | "unsafe">>;
}

interface Counts {
  items: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

interface Metrics extends Counts {
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
}

function isScorer(name: string): name is ScorerName {
  return (SCORER_NAMES as readonly string[]).includes(name);
}

/** Builds the ScorableCall the worker would score for one dataset item. */
export function toCall(item: Item): ScorableCall {
  const req = (item.request_body ?? {}) as { model?: unknown };
  const usage = ((item.response_body as { usage?: Record<string, unknown> } | null)?.usage ?? {}) as Record<string, unknown>;
  const tokens = (k: string, alt: string) => Number(usage[k] ?? usage[alt] ?? 0) || 0;
  return {
    model: typeof req.model === "string" ? req.model : "unknown",
    provider: "openai",
    prompt_tokens: tokens("prompt_tokens", "input_tokens"),
    completion_tokens: tokens("completion_tokens", "output_tokens"),
    cost_usd: 0,
    latency_ms: 0,
    request_body: item.request_body,
    response_body: item.response_body,
    metadata: null,
  };
}

function metrics(c: Counts): Metrics {
  const div = (a: number, b: number) => (b === 0 ? 0 : a / b);
  const precision = div(c.tp, c.tp + c.fp);
  const recall = div(c.tp, c.tp + c.fn);
  return { ...c, precision, recall, f1: div(2 * precision * recall, precision + recall), fpr: div(c.fp, c.fp + c.tn) };
}

function parseArgs(argv: string[]) {
  const out = { target: "", json: false, scorer: undefined as ScorerName | undefined, showErrors: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    if (a === "--json") out.json = true;
    else if (a === "--scorer") {
      const s = argv[++i] ?? "";
      if (!isScorer(s)) throw new Error(`unknown scorer: ${s}`);
      out.scorer = s;
    } else if (a === "--show-errors") out.showErrors = Number(argv[++i] ?? "5");
    else out.target = a;
  }
  return out;
}

/** Files to read, each with the scorers it is judged on (null = every expected key). */
function plan(target: string): Array<{ file: string; judge: ScorerName | null }> {
  if (statSync(target).isDirectory()) {
    return readdirSync(target)
      .filter((f) => f.endsWith(".jsonl") && isScorer(basename(f, ".jsonl")))
      .sort()
      .map((f) => ({ file: join(target, f), judge: basename(f, ".jsonl") as ScorerName }));
  }
  const name = basename(target, ".jsonl");
  return [{ file: target, judge: isScorer(name) ? name : null }];
}

function main(): void {
  const args = parseArgs(process.argv.slice(2));
  if (!args.target) {
    console.error("usage: npm run eval -- <file-or-folder> [--json] [--scorer name] [--show-errors n]");
    return;
  }
  const counts = new Map<ScorerName, Counts>();
  const errors = new Map<ScorerName, string[]>();
  for (const { file, judge } of plan(args.target)) {
    if (args.scorer && judge && judge !== args.scorer) continue;
    for (const line of readFileSync(file, "utf8").split("\n")) {
      if (!line.trim()) continue;
      const item = JSON.parse(line) as Item;
      const scores = scoreCall(toCall(item));
      for (const [name, label] of Object.entries(item.expected) as Array<[ScorerName, string]>) {
        if ((judge && name !== judge) || (args.scorer && name !== args.scorer) || !isScorer(name)) continue;
        const s = scores.find((r) => r.scorer_name === name);
        const predicted = s?.score_label === "unsafe";
        const actual = label === "unsafe";
        const c = counts.get(name) ?? { items: 0, tp: 0, fp: 0, tn: 0, fn: 0 };
        c.items++;
        if (predicted && actual) c.tp++;
        else if (predicted) c.fp++;
        else if (actual) c.fn++;
        else c.tn++;
        counts.set(name, c);
        if (predicted !== actual) {
          const list = errors.get(name) ?? [];
          list.push(`${predicted ? "FP" : "FN"} ${item.id} [${s?.score_value ?? "null"}] ${s?.rationale ?? ""}`);
          errors.set(name, list);
        }
      }
    }
  }
  const rows = SCORER_NAMES.filter((n) => counts.has(n)).map((n) => ({ scorer: n, ...metrics(counts.get(n)!) }));
  if (args.json) {
    console.log(JSON.stringify({ target: args.target, results: rows }, null, 2));
  } else {
    const f = (v: number) => v.toFixed(3);
    console.log("| scorer | items | TP | FP | TN | FN | precision | recall | F1 | FPR |");
    console.log("|---|---|---|---|---|---|---|---|---|---|");
    for (const r of rows) {
      console.log(`| ${r.scorer} | ${r.items} | ${r.tp} | ${r.fp} | ${r.tn} | ${r.fn} | ${f(r.precision)} | ${f(r.recall)} | ${f(r.f1)} | ${f(r.fpr)} |`);
    }
  }
  if (args.showErrors > 0) {
    for (const [name, list] of errors) {
      console.error(`\n# ${name}: ${list.length} errors`);
      for (const e of list.slice(0, args.showErrors)) console.error(e);
    }
  }
}

main();
