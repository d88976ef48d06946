/**
 * bench/results/scale.md from the scale benchmark's stages: one table of routes and exports per
 * stage against the targets, and the growth table (each figure at every stage, and the ratio of
 * the last to the first).
 */
import type { StageResult } from "./run";

/** What the report is written from. */
export interface ScaleReport {
  date: string;
  machine: string;
  projects: number;
  days: number;
  batchCalls: number;
  samples: number;
  stages: StageResult[];
  /** Set when the disk could not hold the next stage. */
  stoppedAt: { next: number; needed_bytes: number; free_bytes: number; bytes_per_call: number } | null;
}

const EXPORT_TARGET = 20_000;
const mb = (b: number) => (b / 1e6).toFixed(0);
const gb = (b: number) => (b / 1e9).toFixed(2);
const millions = (n: number) => `${(n / 1e6).toFixed(n >= 1e7 ? 0 : 1)}M`;

/** "met" or "**missed**" against a p50 target (ms), "" without one. */
const verdict = (value: number, target: number | null, lowerIsBetter = true) =>
  target === null ? "" : (lowerIsBetter ? value <= target : value >= target) ? "met" : "**missed**";

/** One stage's tables. */
function stageTables(s: StageResult): string[] {
  const seed = s.seed_seconds;
  return [
    `## ${millions(s.calls)} calls, ${millions(s.scores)} scores`,
    "",
    `Seed of this stage: requests COPY (with R2 writes) ${seed.requests_copy.toFixed(0)} s, scores COPY ${seed.scores_copy.toFixed(0)} s, index builds ${seed.indexes.toFixed(0)} s, VACUUM ANALYZE ${seed.vacuum_analyze.toFixed(0)} s, rollups ${seed.rollups.toFixed(0)} s.`,
    "",
    "| Route | p50 ms | p95 ms | rows | target p50 | |",
    "|---|---:|---:|---:|---:|---|",
    ...s.routes.map(
      (r) => `| ${r.name} | ${r.p50_ms.toFixed(1)} | ${r.p95_ms.toFixed(1)} | ${r.rows ?? ""} | ${r.target_ms ?? ""} | ${verdict(r.p50_ms, r.target_ms)} |`,
    ),
    "",
    `| Export | rows | seconds | rows/s | MB | target ${EXPORT_TARGET.toLocaleString("en")} rows/s |`,
    "|---|---:|---:|---:|---:|---|",
    ...s.exports.map(
      (e) =>
        `| ${e.name} | ${e.rows} | ${e.seconds.toFixed(1)} | ${e.rows_per_s.toFixed(0)} | ${e.mb.toFixed(1)} | ${verdict(e.rows_per_s, EXPORT_TARGET, false)} |`,
    ),
    "",
  ];
}

/** The report's Markdown. */
export function writeReport(r: ScaleReport): string {
  const first = r.stages[0]!;
  const last = r.stages.at(-1)!;
  const ratio = (f: (s: StageResult) => number) => (r.stages.length > 1 ? `${(f(last) / f(first)).toFixed(2)}x` : "");
  const row = (name: string, f: (s: StageResult) => number, fmt: (v: number) => string) =>
    `| ${name} | ${r.stages.map((s) => fmt(f(s))).join(" | ")} | ${ratio(f)} |`;
  const route = (name: string) => (s: StageResult) => s.routes.find((x) => x.name === name)?.p50_ms ?? Number.NaN;
  const exportRate = (name: string) => (s: StageResult) => s.exports.find((x) => x.name === name)?.rows_per_s ?? Number.NaN;
  const perCall = (s: StageResult) => s.pg_bytes.database / s.calls;
  const whole = (v: number) => v.toFixed(0);
  const tenths = (v: number) => v.toFixed(1);
  return [
    "# Ten million calls (`npm run bench:scale`)",
    "",
    `Run ${r.date}. ${r.machine}.`,
    "",
    `${r.projects} projects (Zipf: the largest holds 13% of calls, the median 0.03%), ${r.days} days, six scores per call; bodies from ../shared/eval traffic/train.jsonl (real ordinary calls), inline up to 1 KiB, else gzip in local R2, one object per batch of ${r.batchCalls.toLocaleString("en")} consecutive calls and project. Each route: ${r.samples} sequential calls over one keep-alive connection after 3 warm-up calls. Routes on the largest and on the median project.`,
    "",
    ...(r.stoppedAt
      ? [
          `**Stopped before ${millions(r.stoppedAt.next)} calls:** at ${r.stoppedAt.bytes_per_call.toFixed(0)} bytes per call on the database's disk (measured at ${millions(last.calls)}), the next stage needs about ${(r.stoppedAt.needed_bytes / 1e9).toFixed(0)} GB of disk with 4 GB for WAL and index builds; ${(r.stoppedAt.free_bytes / 1e9).toFixed(0)} GB were free.`,
          "",
        ]
      : []),
    "## Growth",
    "",
    `| Figure | ${r.stages.map((s) => millions(s.calls)).join(" | ")} | last / first |`,
    `|---|${r.stages.map(() => "---:").join("|")}|---:|`,
    row("PostgreSQL database, GB", (s) => s.pg_bytes.database, gb),
    row("`llm_requests` with indexes, MB", (s) => s.pg_bytes.llm_requests, mb),
    row("`safety_scores` with indexes, MB", (s) => s.pg_bytes.safety_scores, mb),
    row("rollups, MB", (s) => s.pg_bytes.rollups, mb),
    row("PostgreSQL bytes per call", perCall, whole),
    row("R2 objects", (s) => s.r2.objects, whole),
    row("R2 bytes per call (gzip members)", (s) => s.r2.bytes / s.calls, whole),
    row("calls with a body in R2, %", (s) => (100 * s.r2.calls_with_r2_bodies) / s.calls, tenths),
    row("body JSON bytes per call (as logged)", (s) => s.body_json_bytes_per_call, whole),
    row("ingest: PostgreSQL CPU per stored call, us (warm: median of 3 runs after 4)", (s) => s.ingest.pg_cpu_us_per_call, whole),
    row("ingest: the same, cold (the first run after the seed)", (s) => s.ingest.cold_pg_cpu_us_per_call, whole),
    row("ingest: calls/s (statement only, 4 at once)", (s) => s.ingest.calls_per_s, whole),
    row("largest: list first page p50, ms", route("largest: list, first page"), tenths),
    row("largest: detail (R2) p50, ms", route("largest: detail (bodies from R2) with neighbours"), tenths),
    row("largest: overview 30 days p50, ms", route("largest: overview 30 days (day buckets)"), tenths),
    row("largest: export JSONL rows/s (3 days)", exportRate("largest, last 3 days, jsonl"), whole),
    row("largest: export JSONL rows/s (30 days)", exportRate("largest, last 30 days, jsonl"), whole),
    row("median: list first page p50, ms", route("median: list, first page"), tenths),
    row("median: export JSONL rows/s", exportRate("median, 90 days, jsonl"), whole),
    "",
    `### Where PostgreSQL's bytes go at ${millions(last.calls)} calls`,
    "",
    "| relation | part | MB | bytes per call |",
    "|---|---|---:|---:|",
    ...(last.relations ?? []).map((x) => `| ${x.relation} | ${x.kind} | ${mb(x.bytes)} | ${(x.bytes / last.calls).toFixed(0)} |`),
    "",
    ...r.stages.flatMap(stageTables),
  ].join("\n");
}
