/**
 * Overview (issue 15): requests, error rate, p50/p95 latency, cost and the unsafe rate per
 * scorer per hour or day over the selected range, from the API's /api/stats/timeseries (the
 * database aggregates; no rows reach the browser). Range and bucket live in the URL.
 */
import { useQuery } from "@tanstack/react-query";
import { useSearchParams } from "react-router";
import { Button, Card, PageTitle } from "../components/ui";
import { request } from "../lib/api";
import { useCurrentProject } from "../lib/projects";
import { SCORERS } from "./Requests";

export interface Point {
  bucket: string;
  requests: number;
  errors: number;
  error_rate: number | null;
  p50_latency_ms: number | null;
  p95_latency_ms: number | null;
  cost_usd: number;
  scorers: { scorer_name: string; scores: number; unsafe: number; unsafe_rate: number | null }[];
}

const RANGES = {
  "24 h": { ms: 86_400_000, bucket: "hour" },
  "7 days": { ms: 7 * 86_400_000, bucket: "day" },
  "30 days": { ms: 30 * 86_400_000, bucket: "day" },
} as const;
type Range = keyof typeof RANGES;

/** A small line chart of `values` (nulls are gaps drawn as zero), with its latest value. */
export function Spark({ title, values, format }: { title: string; values: (number | null)[]; format: (v: number) => string }) {
  const max = Math.max(1e-9, ...values.map((v) => v ?? 0));
  const w = 240;
  const h = 48;
  const pts = values.map((v, i) => `${(i / Math.max(1, values.length - 1)) * w},${h - ((v ?? 0) / max) * h}`).join(" ");
  const total = values.reduce<number>((a, v) => a + (v ?? 0), 0);
  return (
    <figure className="rounded border border-zinc-200 p-2 dark:border-zinc-800">
      <figcaption className="text-xs font-medium">
        {title} <span className="text-zinc-500">max {format(max)}</span>
      </figcaption>
      <svg viewBox={`0 0 ${w} ${h}`} className="h-12 w-full" role="img" aria-label={`${title}: ${values.length} buckets, sum ${format(total)}`}>
        <polyline fill="none" stroke="currentColor" strokeWidth="1.5" points={pts} />
      </svg>
    </figure>
  );
}

export function Overview() {
  const project = useCurrentProject()!;
  const [params, setParams] = useSearchParams();
  const range = (params.get("range") as Range | null) ?? "24 h";
  const { ms, bucket } = RANGES[range] ?? RANGES["24 h"];
  // The end is the next whole hour, so the URL's range gives the same buckets for a while.
  const end = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const start = end - ms;
  const series = useQuery({
    queryKey: ["timeseries", project.id, range, end],
    queryFn: () =>
      request<{ points: Point[] }>(
        `/api/projects/${project.id}/stats/timeseries?bucket=${bucket}&start=${new Date(start).toISOString()}&end=${new Date(end).toISOString()}`,
      ),
  });
  const points = series.data?.points ?? [];
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  return (
    <div className="space-y-4">
      <PageTitle subtitle={`per ${bucket}, UTC`}>Overview</PageTitle>
      <div className="flex gap-2">
        {(Object.keys(RANGES) as Range[]).map((r) => (
          <Button key={r} type="button" variant={r === range ? "secondary" : "ghost"} onClick={() => setParams({ range: r })}>
            {r}
          </Button>
        ))}
      </div>
      {series.isError && <p role="alert">{series.error.message}</p>}
      <Card title="Traffic">
        <div className="grid grid-cols-1 gap-2 md:grid-cols-3">
          <Spark title="Requests" values={points.map((p) => p.requests)} format={(v) => v.toFixed(0)} />
          <Spark title="Error rate" values={points.map((p) => p.error_rate)} format={pct} />
          <Spark title="Cost (USD)" values={points.map((p) => p.cost_usd)} format={(v) => `$${v.toFixed(4)}`} />
          <Spark title="Latency p50 (ms)" values={points.map((p) => p.p50_latency_ms)} format={(v) => v.toFixed(0)} />
          <Spark title="Latency p95 (ms)" values={points.map((p) => p.p95_latency_ms)} format={(v) => v.toFixed(0)} />
        </div>
      </Card>
      <Card title="Unsafe rate per scorer">
        <div className="grid grid-cols-1 gap-2 md:grid-cols-3">
          {SCORERS.map((name) => (
            <Spark key={name} title={name} values={points.map((p) => p.scorers.find((s) => s.scorer_name === name)?.unsafe_rate ?? null)} format={pct} />
          ))}
        </div>
      </Card>
    </div>
  );
}
