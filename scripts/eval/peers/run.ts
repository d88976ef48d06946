/**
 * `npm run eval -- --peers`: Sightline's scorers beside open guardrail libraries from npm
 * (one adapter per peer in this folder), on the same labelled items, each peer guard on the
 * text it would see in a gateway (views.ts). Writes bench/results/eval-peers.md:
 *
 * - `dev/<scorer>.jsonl`: recall and FPR per scorer and peer;
 * - `traffic/dev.jsonl` (ordinary calls, all safe): the share each flags;
 * - leave-one-source-out: for each source family of train + dev + `traffic/train.jsonl`
 *   (scripts/lib/eval-items.ts `sourceFamily`), recall and FPR on that family's items. The
 *   peers were not trained here, so this is their per-family result; Sightline's learned
 *   scorers' figures are the validation `npm run train` recorded in
 *   src/scoring/scorers/manifest.json (a model fitted without that family scores it), and
 *   pii_detection (rules only) is run here like a peer;
 * - CPU milliseconds per call (this process's user + system time around each call).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scoreCall } from "../../../src/policy/apply";
import type { ScorerName } from "../../../src/enums";
import { type Confusion, emptyConfusion, tally } from "../../lib/confusion";
import { evalDir, readItems, sourceFamily, splitItems, toCall, trafficItems, type EvalItem } from "../../lib/eval-items";
import { haiGuardrailsPeer } from "./hai-guardrails";
import { llmGuardPeer } from "./llm-guard";
import { llmGuardrailPeer } from "./llm-guardrail";
import { obscenityPeer } from "./obscenity";
import { openaiGuardrailsPeer } from "./openai-guardrails";
import type { Peer } from "./types";
import { callViews, viewFor } from "./views";

/** The scorers with labelled data (unbounded_consumption has none). */
const SCORERS: ScorerName[] = ["content_safety", "jailbreak_detection", "pii_detection", "vector_weakness", "data_poisoning"];
const SIGHTLINE = "Sightline";
const ROOT = join(import.meta.dirname, "../../..");

/** "recall / FPR" of a cell; "-" for a rate with no items (no unsafe items: no recall). */
function cell(c: Confusion | undefined): string {
  if (!c) return "no check";
  const rate = (a: number, b: number) => (b === 0 ? "-" : (a / b).toFixed(3));
  return `${rate(c.tp, c.tp + c.fn)} / ${rate(c.fp, c.fp + c.tn)}`;
}

/** A judge: Sightline's shipped scorer or a peer's check, with its CPU time. */
interface Judge {
  name: string;
  judge(scorer: ScorerName, item: EvalItem): Promise<boolean | undefined>;
  cpu: Map<ScorerName, { calls: number; us: number }>;
}

async function timed<T>(cpu: Judge["cpu"], scorer: ScorerName, fn: () => Promise<T>): Promise<T> {
  const t = process.cpuUsage();
  const out = await fn();
  const d = process.cpuUsage(t);
  const c = cpu.get(scorer) ?? { calls: 0, us: 0 };
  c.calls++;
  c.us += d.user + d.system;
  cpu.set(scorer, c);
  return out;
}

/** Sightline's shipped scorers (rules + models), `scoreCall` as the scorer worker runs it: all six per call. */
function sightline(): Judge {
  const cpu: Judge["cpu"] = new Map();
  return {
    name: SIGHTLINE,
    cpu,
    judge: (scorer, item) => timed(cpu, scorer, async () => scoreCall(toCall(item)).find((r) => r.scorer_name === scorer)?.score_label === "unsafe"),
  };
}

/** A peer as a judge: undefined for scorers it has no check for. */
function peerJudge(peer: Peer): Judge {
  const cpu: Judge["cpu"] = new Map();
  const views = new WeakMap<EvalItem, ReturnType<typeof callViews>>();
  return {
    name: peer.name,
    cpu,
    judge: async (scorer, item) => {
      const check = peer.checks[scorer];
      if (!check) return undefined;
      let v = views.get(item);
      if (!v) views.set(item, (v = callViews(item.request_body, item.response_body)));
      const text = viewFor(scorer, v);
      if (!text.trim()) return false; // nothing for this guard to see
      return timed(cpu, scorer, () => check.flags(text));
    },
  };
}

/** Confusion of every judge on `items` for `scorer`, labels from `expected[scorer]` (or all safe). */
async function score(judges: Judge[], scorer: ScorerName, items: EvalItem[], allSafe = false): Promise<Map<string, Confusion>> {
  const out = new Map<string, Confusion>();
  for (const item of items) {
    const actual = !allSafe && item.expected[scorer] === "unsafe";
    for (const j of judges) {
      const predicted = await j.judge(scorer, item);
      if (predicted === undefined) continue;
      const c = out.get(j.name) ?? emptyConfusion();
      tally(c, predicted, actual);
      out.set(j.name, c);
    }
  }
  return out;
}

type LosoSource = { split: string; items: number; tp: number; fp: number; tn: number; fn: number };

/** Sightline's recorded leave-one-source-out validation of a learned scorer (manifest.json), or undefined. */
function recordedLoso(scorer: ScorerName): { pooled: Confusion; per_source: Record<string, LosoSource> } | undefined {
  const manifest = JSON.parse(readFileSync(join(ROOT, "src/scoring/scorers/manifest.json"), "utf8")) as {
    models: Record<string, { leave_one_source_out?: { pooled: Confusion; per_source: Record<string, LosoSource> } }>;
  };
  return manifest.models[scorer]?.leave_one_source_out;
}

/** The leave-one-source-out items of a scorer: train + dev + ordinary traffic (train), by family. */
function losoItems(scorer: ScorerName): Map<string, EvalItem[]> {
  const traffic = trafficItems("train").map((it) => ({ ...it, expected: { [scorer]: "safe" as const } }));
  const byFamily = new Map<string, EvalItem[]>();
  for (const it of [...splitItems("train", scorer), ...splitItems("dev", scorer), ...traffic]) {
    const fam = sourceFamily(it.id);
    const list = byFamily.get(fam);
    if (list) list.push(it);
    else byFamily.set(fam, [it]);
  }
  return new Map([...byFamily].sort(([a], [b]) => a.localeCompare(b)));
}

const sum = (cs: Confusion[]): Confusion => cs.reduce((a, c) => ({ tp: a.tp + c.tp, fp: a.fp + c.fp, tn: a.tn + c.tn, fn: a.fn + c.fn }), emptyConfusion());

/** Runs every peer and Sightline; writes bench/results/eval-peers.md. */
export async function runPeers(): Promise<void> {
  const dir = evalDir();
  const peers = [llmGuardPeer(), haiGuardrailsPeer(), await openaiGuardrailsPeer(), obscenityPeer(), llmGuardrailPeer()];
  const ours = sightline();
  const judges = [ours, ...peers.map(peerJudge)];
  const names = judges.map((j) => j.name);
  const header = `| set | ${names.join(" | ")} |\n|---|${names.map(() => "---:").join("|")}|`;
  const row = (label: string, m: Map<string, Confusion>) => `| ${label} | ${names.map((n) => cell(m.get(n))).join(" | ")} |`;

  const dev: string[] = [];
  const traffic: string[] = [];
  const pooled: string[] = [];
  const perSource: string[] = [];
  const trafficSet = readItems(join(dir, "traffic/dev.jsonl"));
  for (const scorer of SCORERS) {
    const cpuNow = () => judges.map((j) => `${j.name} ${Math.round([...j.cpu.values()].reduce((a, c) => a + c.us, 0) / 1e6)} s`).join(", ");
    console.log(`${scorer}: dev, traffic/dev, leave-one-source-out ... (CPU so far: ${cpuNow()})`);
    const devItems = splitItems("dev", scorer);
    dev.push(row(`${scorer} (${devItems.length})`, await score(judges, scorer, devItems)));
    traffic.push(row(`${scorer} (${trafficSet.length})`, await score(judges, scorer, trafficSet, true)));

    // Leave-one-source-out: peers (and rules-only Sightline scorers) per family; learned scorers from the manifest.
    const recorded = recordedLoso(scorer);
    const losoJudges = recorded ? judges.slice(1) : judges;
    const families = losoItems(scorer);
    const rows: string[] = [];
    const byJudge = new Map<string, Confusion[]>();
    for (const [fam, items] of families) {
      const m = await score(losoJudges, scorer, items);
      const r = recorded?.per_source[fam];
      if (r) m.set(SIGHTLINE, r);
      for (const [n, c] of m) byJudge.set(n, [...(byJudge.get(n) ?? []), c]);
      rows.push(row(`${fam} (${items.length})`, m));
    }
    const pooledMap = new Map([...byJudge].map(([n, cs]) => [n, sum(cs)]));
    if (recorded) pooledMap.set(SIGHTLINE, recorded.pooled);
    pooled.push(row(scorer, pooledMap));
    perSource.push(`### ${scorer}`, "", header.replace("| set |", "| left-out source (items) |"), ...rows, "");
  }

  const perCall = (calls: number, us: number) => (us / 1000 / calls).toFixed(3);
  const oursCpu = [...ours.cpu.values()].reduce((a, c) => ({ calls: a.calls + c.calls, us: a.us + c.us }), { calls: 0, us: 0 });
  const cpuRows = [
    `| ${SIGHTLINE} | every scorer | scoreCall: all six scorers in one call | ${oursCpu.calls} | ${perCall(oursCpu.calls, oursCpu.us)} |`,
    ...judges.slice(1).flatMap((j) =>
      [...j.cpu].map(([scorer, c]) => {
        const what = peers.find((p) => p.name === j.name)!.checks[scorer]!.what;
        return `| ${j.name} | ${scorer} | ${what} | ${c.calls} | ${perCall(c.calls, c.us)} |`;
      }),
    ),
  ];
  const date = new Date().toISOString().slice(0, 10);
  const doc = [
    "# Scorer evaluation beside open guardrail libraries",
    "",
    `Date: ${date}. Command: \`npm run eval -- --peers\` (scripts/eval/peers/, one adapter per library). Node ${process.version}, offline:`,
    "every peer below is an npm package run in this process through its published API, with nothing downloaded at run time.",
    "",
    "Each cell is **recall / FPR** (`-`: the set has no unsafe, or no safe, items). `unscored` counts as safe. Each peer guard sees",
    "the text it would see in a gateway (scripts/eval/peers/views.ts): content_safety the completion when there is one (an output",
    "guardrail; the label asks whether harm was delivered), else the prompt; jailbreak_detection the user's turns; pii_detection the",
    "user's turns, retrieved documents and completion; vector_weakness the retrieved documents. A call with no such text is not",
    "flagged. Sightline is the shipped scorer (rules + models) as the scorer worker runs it.",
    "",
    "## Peers",
    "",
    "| package | version | beside | guard called | not run here, and why |",
    "|---|---|---|---|---|",
    ...peers.map((p) => {
      const checks = Object.entries(p.checks);
      return `| ${p.name} | ${p.version} | ${checks.map(([s]) => s).join("<br>")} | ${checks.map(([, c]) => c!.what).join("<br>")} | ${p.notRun.join("<br>") || "-"} |`;
    }),
    "",
    "Also considered: `llm-guard` on PyPI (Protect AI) is Python and downloads its models from a model hub at first use, so it",
    "cannot run offline here; the npm package of that name is the one above (a different project). No peer has a check for",
    "data_poisoning (a retrieved passage contradicted by planted ones and adopted by the answer); its rows show Sightline only.",
    "",
    "## dev/ (recall / FPR)",
    "",
    "In-sample for Sightline's four learned scorers (their models were fitted on train + dev; out-of-sample figures are the",
    "leave-one-source-out rows below and [eval-kfold.md](eval-kfold.md)). The peers never saw these items unless their authors",
    "trained on the same public sets.",
    "",
    header,
    ...dev,
    "",
    "## traffic/dev.jsonl: ordinary calls (recall / FPR; every item is safe, so FPR is the share flagged)",
    "",
    header,
    ...traffic,
    "",
    "## Leave-one-source-out (recall / FPR)",
    "",
    "For each source family of train + dev + `traffic/train.jsonl` (one family, `traffic`), the judge's recall and FPR on that",
    "family's items. The peers were not trained here, so this is simply their result per family. Sightline's learned scorers",
    "(content_safety, jailbreak_detection, vector_weakness, data_poisoning): the figures `npm run train` recorded for the shipped",
    "models in src/scoring/scorers/manifest.json, each family scored by a model fitted without it (as in",
    "[eval-loso.md](eval-loso.md)); pii_detection has no model and is run here. Pooled over all families:",
    "",
    header.replace("| set |", "| scorer |"),
    ...pooled,
    "",
    ...perSource,
    "## CPU per call (ms)",
    "",
    "This process's user + system CPU time around each call (`process.cpuUsage`), averaged over every call above (calls with",
    "no text for the guard are not made). Sightline's row is one `scoreCall` per item, which runs all six scorers.",
    "",
    "| judge | beside | what is called | calls | CPU ms per call |",
    "|---|---|---|---:|---:|",
    ...cpuRows,
    "",
  ].join("\n");
  const out = join(ROOT, "bench/results/eval-peers.md");
  writeFileSync(out, doc);
  console.log(doc);
  console.log(`\nwrote ${out}`);
  process.exit(0); // the hai-guardrails worker pool keeps the event loop alive
}
