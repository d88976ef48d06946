/**
 * `npm run eval -- --judge <url> [--judge-model <name>] [--scorer <name>] [--limit <n>]`:
 * measures a guard model behind an OpenAI-compatible endpoint (`<url>` as `JUDGE_BASE_URL`, e.g.
 * `http://127.0.0.1:8000/v1`; bearer key from the `JUDGE_API_KEY` environment variable) on the
 * evaluation sets: for each judged scorer, recall and FPR on `dev/<scorer>.jsonl` and the share
 * of `traffic/dev.jsonl` flagged, for the local scorers alone and for local + judge under policy
 * `judge: "uncertain"`. It runs the worker's own path: `scoreCall`, `judgeHook`, `judgeRequest`,
 * the OpenAI-compatible backend, `askOnce` and `mergeVerdict`; a failed call keeps the local
 * score (and is counted). The table is printed and written to bench/results/eval-judge.md.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scoreCall } from "../../src/policy/apply";
import { judgeHook, mergeVerdict } from "../../src/policy/judge";
import { judgeRequest } from "../../src/scoring/judge/prompts";
import { JUDGE_HOOKS } from "../../src/scoring/registry";
import type { ScorerName } from "../../src/enums";
import { type JudgeBackend, openAiBackend } from "../../workers/scorer/src/judge/backends";
import { askOnce, JUDGE_CONCURRENCY, JUDGE_TIMEOUT_MS } from "../../workers/scorer/src/judge/tier";
import { type Confusion, emptyConfusion, tally } from "../lib/confusion";
import { type EvalItem, evalDir, readItems, toCall, trafficFile } from "../lib/eval-items";

/** Options of one measurement. */
export interface JudgeEvalOptions {
  baseUrl: string;
  model: string;
  apiKey?: string;
  /** Only this scorer (default: every judged scorer). */
  scorer?: ScorerName;
  /** Items read per file at most (default: all). */
  limit?: number;
  timeoutMs?: number;
}

/** One scorer's figures: local and local + judge, on its labelled dev set and on ordinary traffic. */
export interface JudgeEvalRow {
  scorer: ScorerName;
  items: number;
  traffic: number;
  /** Guard-model calls made (items inside the uncertain band), and how many gave no verdict. */
  asked: number;
  failed: number;
  local: { recall: number; fpr: number; traffic_flagged: number };
  judged: { recall: number; fpr: number; traffic_flagged: number };
}

const share = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Runs `fn` over `items`, `limit` at a time. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await fn(items[next++]!);
    }),
  );
}

/** The local and judged labels of `item` for `scorer` (unsafe = true), asking `backend` when the score is unsure. */
async function judgedPair(backend: JudgeBackend, item: EvalItem, scorer: ScorerName, timeoutMs: number, stats: { asked: number; failed: number }) {
  const call = toCall(item);
  const local = scoreCall(call).find((s) => s.scorer_name === scorer);
  if (!local) return { local: false, judged: false };
  const hook = judgeHook("uncertain", local);
  const request = hook ? judgeRequest(call, hook, backend.kind(hook)) : null;
  if (!hook || !request) return { local: local.score_label === "unsafe", judged: local.score_label === "unsafe" };
  stats.asked++;
  const result = await askOnce(backend, request, timeoutMs);
  if (!result.ok) stats.failed++;
  const judged = result.ok ? mergeVerdict(local, result.verdict, backend.model(backend.kind(hook))) : local;
  return { local: local.score_label === "unsafe", judged: judged.score_label === "unsafe" };
}

/** Measures the endpoint on the evaluation sets; one row per judged scorer that has a dev set. */
export async function judgeEval(opts: JudgeEvalOptions): Promise<JudgeEvalRow[]> {
  const backend = openAiBackend({ baseUrl: opts.baseUrl, model: opts.model, apiKey: opts.apiKey });
  const timeoutMs = opts.timeoutMs ?? JUDGE_TIMEOUT_MS;
  const take = (items: EvalItem[]) => (opts.limit ? items.slice(0, opts.limit) : items);
  const traffic = existsSync(trafficFile("dev")) ? take(readItems(trafficFile("dev"))) : [];
  const names = (Object.keys(JUDGE_HOOKS) as ScorerName[]).filter((n) => !opts.scorer || n === opts.scorer);
  const rows: JudgeEvalRow[] = [];
  for (const scorer of names) {
    const file = join(evalDir(), "dev", `${scorer}.jsonl`);
    if (!existsSync(file)) continue;
    const items = take(readItems(file)).filter((it) => it.expected[scorer] !== undefined);
    const stats = { asked: 0, failed: 0 };
    const dev = { local: emptyConfusion(), judged: emptyConfusion() };
    const flagged = { local: 0, judged: 0 };
    await pool(items, JUDGE_CONCURRENCY, async (item) => {
      const pair = await judgedPair(backend, item, scorer, timeoutMs, stats);
      const actual = item.expected[scorer] === "unsafe";
      tally(dev.local, pair.local, actual);
      tally(dev.judged, pair.judged, actual);
    });
    await pool(traffic, JUDGE_CONCURRENCY, async (item) => {
      const pair = await judgedPair(backend, item, scorer, timeoutMs, stats);
      flagged.local += Number(pair.local);
      flagged.judged += Number(pair.judged);
    });
    const figures = (t: Confusion, f: number) => ({
      recall: share(t.tp, t.tp + t.fn),
      fpr: share(t.fp, t.fp + t.tn),
      traffic_flagged: share(f, traffic.length),
    });
    rows.push({
      scorer,
      items: items.length,
      traffic: traffic.length,
      ...stats,
      local: figures(dev.local, flagged.local),
      judged: figures(dev.judged, flagged.judged),
    });
  }
  return rows;
}

/** The rows as a markdown table. */
export function judgeTable(model: string, rows: readonly JudgeEvalRow[]): string {
  const f = (v: number) => v.toFixed(3);
  const lines = [
    `Guard model \`${model}\` under policy judge: "uncertain" (dev/ and traffic/dev.jsonl).`,
    "",
    "| scorer | items | traffic | asked | failed | recall local | recall +judge | FPR local | FPR +judge | traffic flagged local | traffic flagged +judge |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (r) =>
        `| ${r.scorer} | ${r.items} | ${r.traffic} | ${r.asked} | ${r.failed} | ${f(r.local.recall)} | ${f(r.judged.recall)} | ${f(r.local.fpr)} | ${f(r.judged.fpr)} | ${f(r.local.traffic_flagged)} | ${f(r.judged.traffic_flagged)} |`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}

/** `--judge` arguments of `npm run eval`: measures, prints and writes bench/results/eval-judge.md. */
export async function judgeEvalMain(argv: readonly string[]): Promise<void> {
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const baseUrl = value("--judge");
  if (!baseUrl) throw new Error("--judge needs the endpoint's base URL, e.g. http://127.0.0.1:8000/v1");
  const model = value("--judge-model") ?? "meta-llama/Llama-Guard-3-8B";
  const limit = value("--limit");
  const rows = await judgeEval({
    baseUrl,
    model,
    apiKey: process.env.JUDGE_API_KEY || undefined,
    scorer: value("--scorer") as ScorerName | undefined,
    limit: limit ? Number(limit) : undefined,
  });
  const doc = judgeTable(model, rows);
  console.log(doc);
  writeFileSync(
    join(import.meta.dirname, "../../bench/results/eval-judge.md"),
    `# Guard-model evaluation (${new Date().toISOString().slice(0, 10)})\n\n${doc}`,
  );
}
