/**
 * Scorer evaluation (format of the labelled data: ../shared/eval/README.md).
 *
 *   npm run eval                  everything below, written to bench/results/eval-*.md
 *   npm run eval -- <file-or-folder> [--json] [--scorer <name>] [--show-errors <n>]
 *   npm run eval -- --judge <url> [--judge-model <name>] [--scorer <name>] [--limit <n>]
 *                                 a guard model on the eval sets (./eval/judge.ts)
 *   npm run eval -- --peers       open guardrail libraries beside the scorers (scripts/eval/peers/run.ts)
 *
 * With no path it prints and writes four tables:
 * 1. `eval-dev.md`: the shipped scorers (rules + models) on `dev/`, and the rules alone on
 *    `dev/` and on `train/` (data the rules were not written against). The models were fitted
 *    on train + dev, so the shipped scorers' dev figures are in-sample; the honest figures are:
 * 2. `eval-kfold.md`: 5-fold cross-validation on train + dev (every item scored by a model
 *    that did not see it), over all items and over the dev items only;
 * 3. `eval-loso.md`: leave-one-source-out: for each source family, a model fitted on the
 *    others scores it. This predicts how the scorers do on data nobody has seen.
 * 4. `eval-traffic.md`: the share of ordinary calls (`traffic/dev.jsonl`, held out from training)
 *    each shipped scorer labels unsafe, per scorer and per traffic family (goal <= 1%, aim 0.5%).
 * (2) and (3) refit the models (`npm run train`'s code, into a temporary folder).
 *
 * A file exported from triage (`GET /api/reviews/export`) first gets the stored scores' recall
 * and FPR against its reviews (scripts/eval/reviewed-file.ts).
 * A path scores one file or folder with the shipped scorers: `<scorer>.jsonl` is judged on
 * `expected[<scorer>]` only. `unscored` counts as predicted safe. `--show-errors n` prints up
 * to n misclassified ids per scorer with their rationale (never the item text).
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { LEARNED_SPECS, type LearnedName } from "../src/scoring/specs";
import { scoreCall } from "../src/policy/apply";
import type { ScorableCall, ScoreResult } from "../src/scoring/types";
import { SCORER_NAMES, type ScorerName } from "../src/enums";
import { type Confusion, emptyConfusion, tally } from "./lib/confusion";
import { evalDir, readItems, toCall, trafficFile, type EvalItem } from "./lib/eval-items";
import { reviewedReport } from "./eval/reviewed-file";
import { judgeEvalMain } from "./eval/judge";
import { train } from "./train";

interface Counts extends Confusion {
  items: number;
}

interface Metrics extends Counts {
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
}

/** The false-alarm budgets of `loso_curve` (scripts/train/fit.py), as its keys. */
const CURVE_BUDGETS = ["0.01", "0.02", "0.03", "0.05", "0.1"] as const;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

type Judge = (call: ScorableCall, name: ScorerName) => ScoreResult | undefined;

const shipped: Judge = (call, name) => scoreCall(call).find((r) => r.scorer_name === name);
const RULES: Partial<Record<ScorerName, (c: ScorableCall) => ScoreResult>> = Object.fromEntries(Object.values(LEARNED_SPECS).map((s) => [s.name, s.rules]));
/** The rules alone (the scorers before learned models); scorers without a model as shipped. */
const rulesOnly: Judge = (call, name) => RULES[name]?.(call) ?? shipped(call, name);

function isScorer(name: string): name is ScorerName {
  return (SCORER_NAMES as readonly string[]).includes(name);
}

function metrics(c: Counts): Metrics {
  const div = (a: number, b: number) => (b === 0 ? 0 : a / b);
  const precision = div(c.tp, c.tp + c.fp);
  const recall = div(c.tp, c.tp + c.fn);
  return { ...c, precision, recall, f1: div(2 * precision * recall, precision + recall), fpr: div(c.fp, c.fp + c.tn) };
}

/** Files to read, each with the scorer it is judged on (null = every expected key). */
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

/** Scores every planned file; returns metrics per scorer and misclassified ids with rationales. */
function evaluate(target: string, judgeFn: Judge, only?: ScorerName) {
  const counts = new Map<ScorerName, Counts>();
  const errors = new Map<ScorerName, string[]>();
  for (const { file, judge } of plan(target)) {
    if (only && judge && judge !== only) continue;
    for (const item of readItems(file) as EvalItem[]) {
      const call = toCall(item);
      for (const [name, label] of Object.entries(item.expected) as Array<[ScorerName, string]>) {
        if ((judge && name !== judge) || (only && name !== only) || !isScorer(name)) continue;
        const s = judgeFn(call, name);
        const predicted = s?.score_label === "unsafe";
        const actual = label === "unsafe";
        const c = counts.get(name) ?? { items: 0, ...emptyConfusion() };
        c.items++;
        tally(c, predicted, actual);
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
  return { rows, errors };
}

const f3 = (v: number) => v.toFixed(3);

function table(rows: Array<{ scorer: string } & Metrics>): string {
  const head = "| scorer | items | TP | FP | TN | FN | precision | recall | F1 | FPR |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";
  return [
    head,
    ...rows.map(
      (r) => `| ${r.scorer} | ${r.items} | ${r.tp} | ${r.fp} | ${r.tn} | ${r.fn} | ${f3(r.precision)} | ${f3(r.recall)} | ${f3(r.f1)} | ${f3(r.fpr)} |`,
    ),
  ].join("\n");
}

interface FitMetrics extends Metrics {
  split?: string;
}

function fitRow(label: string, m: FitMetrics): string {
  return `| ${label} | ${m.items} | ${m.tp} | ${m.fp} | ${m.tn} | ${m.fn} | ${f3(m.precision)} | ${f3(m.recall)} | ${f3(m.f1)} | ${f3(m.fpr)} |`;
}

const FIT_HEAD = "| | items | TP | FP | TN | FN | precision | recall | F1 | FPR |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|";

function writeResult(file: string, body: string): void {
  const out = join(import.meta.dirname, "../bench/results", file);
  writeFileSync(out, body);
  console.log(`\nwrote ${out}`);
}

/** Share of ordinary calls flagged per scorer, over all of `traffic/dev.jsonl` and per family (`variant` prefix). */
export function trafficFlagged(file = trafficFile("dev")): {
  families: string[];
  rows: Array<{ scorer: ScorerName; items: number; flagged: Record<string, number>; unscored: number }>;
} {
  const items = readItems(file) as Array<EvalItem & { variant?: string }>;
  const family = (it: EvalItem) => it.id.slice(0, it.id.indexOf(":"));
  const families = [...new Set(items.map(family))].sort();
  const size = Object.fromEntries(families.map((f) => [f, items.filter((it) => family(it) === f).length]));
  const names = SCORER_NAMES.filter((n) => n !== "unbounded_consumption");
  const flagged = new Map<ScorerName, Record<string, number>>(
    names.map((n) => [n, { all: 0, unscored: 0, ...Object.fromEntries(families.map((f) => [f, 0])) }]),
  );
  for (const it of items) {
    for (const r of scoreCall(toCall(it))) {
      const c = flagged.get(r.scorer_name);
      if (!c) continue;
      if (r.score_label === "unsafe") {
        c.all!++;
        c[family(it)]!++;
      } else if (r.score_label === "unscored") c.unscored!++;
    }
  }
  const rows = names.map((scorer) => {
    const c = flagged.get(scorer)!;
    const share: Record<string, number> = { all: c.all! / items.length };
    for (const f of families) share[f] = c[f]! / size[f]!;
    return { scorer, items: items.length, flagged: share, unscored: c.unscored! / items.length };
  });
  return { families, rows };
}

function trafficDoc(date: string): string {
  const { families, rows } = trafficFlagged();
  return [
    "# Scorer evaluation: ordinary traffic",
    "",
    `Date: ${date}. Command: \`npm run eval\`. \`../shared/eval/traffic/dev.jsonl\` (held out: the models are trained on`,
    "`traffic/train.jsonl`): everyday calls, safe for every scorer. The share each shipped scorer labels unsafe",
    "(goal <= 1%, aim 0.5%; `test/unit/scoring/traffic.test.ts` fails above 1%), per traffic family, and the share",
    "it leaves unscored (nothing to judge: no documents for vector_weakness, no passages and answer for data_poisoning).",
    "",
    `| scorer | all (${rows[0]?.items ?? 0}) | ${families.join(" | ")} | unscored |`,
    `|---|---:|${families.map(() => "---:").join("|")}|---:|`,
    ...rows.map((r) => `| ${r.scorer} | ${pct(r.flagged.all!)} | ${families.map((f) => pct(r.flagged[f]!)).join(" | ")} | ${pct(r.unscored)} |`),
    "",
  ].join("\n");
}

function everything(): void {
  const dir = evalDir();
  const date = new Date().toISOString().slice(0, 10);
  const traffic = trafficDoc(date);
  console.log(traffic);
  writeResult("eval-traffic.md", traffic);
  const dev = evaluate(join(dir, "dev"), shipped).rows;
  const devRules = evaluate(join(dir, "dev"), rulesOnly).rows;
  const trainRules = evaluate(join(dir, "train"), rulesOnly).rows;
  const devDoc = [
    "# Scorer evaluation: dev set",
    "",
    `Date: ${date}. Command: \`npm run eval\`. \`unscored\` counts as predicted safe. unbounded_consumption has no labelled data (unit tests only).`,
    "",
    "## Shipped scorers (rules + models) on dev",
    "",
    "In-sample for the four learned scorers: their models were fitted on train + dev. The out-of-fold",
    "dev figures are in [eval-kfold.md](eval-kfold.md), the unseen-source figures in [eval-loso.md](eval-loso.md).",
    "",
    table(dev),
    "",
    "## Rules alone, for comparison",
    "",
    "On dev (the data the rules were developed on):",
    "",
    table(devRules),
    "",
    "On train (sources the rules were not written against):",
    "",
    table(trainRules),
    "",
  ].join("\n");
  console.log(devDoc);
  writeResult("eval-dev.md", devDoc);

  const names = Object.keys(LEARNED_SPECS) as LearnedName[];
  const fits = train(names, mkdtempSync(join(tmpdir(), "sightline-eval-")));
  const kfold = [
    "# Scorer evaluation: 5-fold cross-validation on train + dev",
    "",
    `Date: ${date}. Command: \`npm run eval\`. Stratified 5 folds (fixed seed); every item is scored by a model fitted without it,`,
    "with the calibration and threshold chosen on out-of-fold scores, and hard rules deciding alone as in the worker.",
    "",
  ];
  const loso = [
    "# Scorer evaluation: leave-one-source-out",
    "",
    `Date: ${date}. Command: \`npm run eval\`. For each source family of train + dev (SOURCES.md's source key; twins together),`,
    "a model fitted on all other families scores it (calibration from the k-fold run, threshold from the budget below); ordinary",
    "traffic (`traffic/train.jsonl`) is one family, `traffic`. Rules are part of the",
    "scorer as shipped; they were written against the dev sources, so dev-source rows flatter the rules.",
    "F1 is defined for families with unsafe items; for all-safe families read the FPR. Mean F1: over families with unsafe",
    "items; pooled: all left-out predictions together.",
    "",
    "| scorer | mean F1 | pooled precision | pooled recall | pooled F1 | pooled FPR |",
    "|---|---:|---:|---:|---:|---:|",
  ];
  const perSource: string[] = [];
  const points = [
    "## Operating points",
    "",
    "Chosen by `npm run train` for a false-alarm budget (scripts/train/fit.py): the Likert-4 threshold t gives the best",
    "mean F1 whose pooled leave-one-source-out FPR is at most 3% and whose out-of-fold FPR on ordinary traffic is at most",
    "0.5%; the Likert-5 threshold t5 is the lowest where leave-one-source-out precision reaches 95% (1 = never: then only a",
    "hard rule, or a weight-4 rule agreeing with the model, gives 5). Precision and recall at each, leave-one-source-out:",
    "",
    "| scorer | t | precision | recall | t5 | precision at t5 | recall at t5 |",
    "|---|---:|---:|---:|---:|---:|---:|",
  ];
  const curve = [
    "## The trade-off behind the budget",
    "",
    "Pooled leave-one-source-out recall / pooled FPR / ordinary traffic flagged (the traffic family left out) at the",
    "threshold each false-alarm budget would give (the (recall, FPR) pairs the budget trades):",
    "",
    `| scorer | ${CURVE_BUDGETS.map((b) => `FPR <= ${Number(b) * 100}%`).join(" | ")} |`,
    `|---|${CURVE_BUDGETS.map(() => "---:").join("|")}|`,
  ];
  for (const name of names) {
    const m = fits[name] as {
      loso: { pooled: FitMetrics; likert5: FitMetrics };
      loso_curve: Record<string, { recall: number; fpr: number; traffic_fpr?: number }>;
      threshold: number;
      threshold_high: number;
    };
    const p = m.loso.pooled;
    const h = m.loso.likert5;
    points.push(`| ${name} | ${m.threshold} | ${f3(p.precision)} | ${f3(p.recall)} | ${m.threshold_high} | ${f3(h.precision)} | ${f3(h.recall)} |`);
    curve.push(
      `| ${name} | ${CURVE_BUDGETS.map((b) => {
        const c = m.loso_curve[b]!;
        return `${f3(c.recall)} / ${pct(c.fpr)} / ${pct(c.traffic_fpr ?? 0)}`;
      }).join(" | ")} |`,
    );
  }
  for (const name of names) {
    const m = fits[name] as {
      kfold: Record<string, FitMetrics>;
      loso: { per_source: Record<string, FitMetrics>; mean_f1: number; pooled: FitMetrics };
      threshold: number;
    };
    kfold.push(
      `## ${name} (threshold ${m.threshold})`,
      "",
      FIT_HEAD,
      fitRow("all items", m.kfold.all!),
      fitRow("dev items", m.kfold.dev_items!),
      fitRow("train items", m.kfold.train_items!),
      fitRow("ordinary traffic (traffic/train)", m.kfold.traffic_items!),
      fitRow("model alone (no hard rules), all", m.kfold.model_only!),
      "",
    );
    const p = m.loso.pooled;
    loso.push(`| ${name} | ${f3(m.loso.mean_f1)} | ${f3(p.precision)} | ${f3(p.recall)} | ${f3(p.f1)} | ${f3(p.fpr)} |`);
    perSource.push(`## ${name}`, "", FIT_HEAD.replace("| |", "| left-out source (split) |"));
    for (const [fam, r] of Object.entries(m.loso.per_source)) perSource.push(fitRow(`${fam} (${r.split})`, r));
    perSource.push("");
  }
  const kdoc = `${kfold.join("\n")}\n`;
  const ldoc = `${[...loso, "", ...points, "", ...curve, "", ...perSource].join("\n")}\n`;
  console.log(kdoc);
  console.log(ldoc);
  writeResult("eval-kfold.md", kdoc);
  writeResult("eval-loso.md", ldoc);
}

function main(): void {
  const argv = process.argv.slice(2);
  if (argv[0] === "--peers") {
    void import("./eval/peers/run").then((m) => m.runPeers());
    return;
  }
  if (argv.includes("--judge")) {
    judgeEvalMain(argv).catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    });
    return;
  }
  if (argv.length === 0) {
    everything();
    return;
  }
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
  // A triage export (GET /api/reviews/export) also reports its stored scores against the reviews.
  const reviewed = statSync(out.target).isFile() ? reviewedReport(readFileSync(out.target, "utf8")) : null;
  if (reviewed && !out.json) console.log(reviewed.table);
  const { rows, errors } = evaluate(out.target, shipped, out.scorer);
  const stored = reviewed ? { stored_scores: reviewed.stored_scores } : {};
  console.log(out.json ? JSON.stringify({ target: out.target, ...stored, results: rows }, null, 2) : table(rows));
  if (out.showErrors > 0) {
    for (const [name, list] of errors) {
      console.error(`\n# ${name}: ${list.length} errors`);
      for (const e of list.slice(0, out.showErrors)) console.error(e);
    }
  }
}

if (process.argv[1]?.endsWith("eval.ts")) main();
