/**
 * Overview (issues 15 and 25): requests, error rate, latency, cost and the unsafe rate per
 * scorer over the selected range, as Recharts charts with a time axis in the browser's time
 * zone, tooltips and totals. A click on a bucket opens the Requests page filtered to it.
 * Range lives in the URL.
 */
import { useNavigate, useSearchParams } from "react-router";
import { SCORER_NAMES } from "../../../../server/contract";
import { type ChartPoint, SERIES_COLORS, type TimeChartProps } from "../../../components/charts/chart-types";
import { TimeChart } from "../../../components/charts/TimeChart";
import { Button, Card, PageTitle, timeZone } from "../../../components/ui";
import { useCurrentProject } from "../../projects/hooks";
import { spanQuery } from "../../requests/filters";
import { SCORER_INFO } from "../../requests/scorers";
import { bucketEnd, regroup, unsafeRate, useTimeseries } from "../hooks";
import { unpricedNote, usdAmount as usd } from "../../../lib/money";

const RANGES = {
  "24 h": { ms: 86_400_000, unit: "hour" },
  "7 days": { ms: 7 * 86_400_000, unit: "day" },
  "30 days": { ms: 30 * 86_400_000, unit: "day" },
} as const;
type Range = keyof typeof RANGES;

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
const count = (v: number) => Math.round(v).toLocaleString();

/** The Overview page. */
export function OverviewPage() {
  const project = useCurrentProject()!;
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const range = (params.get("range") as Range | null) ?? "24 h";
  const { ms: span, unit } = RANGES[range] ?? RANGES["24 h"];
  // The end is the next whole hour, so the URL's range gives the same buckets for a while.
  const end = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
  const series = useTimeseries(project.id, end - span, end);
  const buckets = regroup(series.data?.points ?? [], unit);
  const totals = {
    requests: buckets.reduce((a, b) => a + b.requests, 0),
    errors: buckets.reduce((a, b) => a + b.errors, 0),
    cost: buckets.reduce((a, b) => a + b.cost_usd, 0),
    unpriced: buckets.reduce((a, b) => a + b.unpriced, 0),
  };
  const unpriced = unpricedNote(totals.unpriced);
  const openBucket = (t: number) => void navigate(`/p/${project.id}/requests?${spanQuery(t, bucketEnd(t, unit))}`);
  const data: ChartPoint[] = buckets.map((b) => ({
    t: b.t,
    requests: b.requests,
    errors: b.errors,
    error_rate: b.requests ? b.errors / b.requests : null,
    cost: b.cost_usd,
    p50: b.p50_latency_ms,
    p95: b.p95_latency_ms,
    ...Object.fromEntries(SCORER_NAMES.map((n) => [n, unsafeRate([b], n)])),
  }));
  const bucketWidth = unit === "hour" ? 3_600_000 : 86_400_000;
  const per = unit === "hour" ? "hour" : "day";
  /** What every chart of the page shares: the buckets, their width, and a click opening a bucket's requests. */
  const axis = { data, bucketMs: bucketWidth, onBucket: openBucket };
  /** The Traffic card's charts, in order. */
  const traffic: Omit<TimeChartProps, keyof typeof axis>[] = [
    {
      title: "Requests",
      total: `${count(totals.requests)} in ${range}`,
      kind: "bar",
      series: [{ key: "requests", name: "Requests", color: SERIES_COLORS[0]! }],
      format: count,
      integer: true,
    },
    {
      title: "Error rate",
      total: totals.requests ? `${pct(totals.errors / totals.requests)} overall` : undefined,
      series: [{ key: "error_rate", name: "Error rate", color: SERIES_COLORS[1]! }],
      format: pct,
    },
    {
      title: unit === "hour" ? "Latency" : "Latency (p50 of the median hour, p95 of the slowest hour)",
      series: [
        { key: "p50", name: "p50", color: SERIES_COLORS[2]! },
        { key: "p95", name: "p95", color: SERIES_COLORS[3]! },
      ],
      format: ms,
    },
    {
      title: "Cost (USD)",
      total: `${usd(totals.cost)} in ${range}${unpriced ? ` (${unpriced})` : ""}`,
      kind: "bar",
      series: [{ key: "cost", name: "Cost", color: SERIES_COLORS[4]! }],
      format: usd,
    },
  ];
  return (
    <div className="space-y-4">
      <PageTitle subtitle={`Per ${per}, times in ${timeZone()}. Click a bar or a point to see its requests.`}>Overview</PageTitle>
      <div className="flex gap-2">
        {(Object.keys(RANGES) as Range[]).map((r) => (
          <Button key={r} variant={r === range ? "secondary" : "ghost"} aria-pressed={r === range} onClick={() => setParams({ range: r })}>
            {r}
          </Button>
        ))}
      </div>
      {series.isError && <p role="alert">{series.error.message}</p>}
      {series.isPending ? (
        <p>Loading…</p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" aria-label={`Totals of the last ${range}`}>
            {[
              ["Requests", count(totals.requests)],
              ["Errors", `${count(totals.errors)}${totals.requests ? ` (${pct(totals.errors / totals.requests)})` : ""}`],
              ["Cost", usd(totals.cost), unpriced],
              [
                "Unsafe (content)",
                (() => {
                  const r = unsafeRate(buckets, "content_safety");
                  return r === null ? "no scores" : pct(r);
                })(),
              ],
            ].map(([label, value, note]) => (
              <div key={label} className="rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
                <dt className="text-sm text-zinc-700 dark:text-zinc-300">{label}</dt>
                <dd className="text-2xl font-semibold">{value}</dd>
                {note && <dd className="text-xs text-zinc-700 dark:text-zinc-300">{note}</dd>}
              </div>
            ))}
          </dl>
          <Card title="Traffic">
            <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
              {traffic.map((chart) => (
                <TimeChart key={chart.series[0]!.key} {...chart} {...axis} />
              ))}
            </div>
          </Card>
          <Card title="Unsafe rate per scorer">
            <TimeChart
              title="Share of unsafe scores"
              series={SCORER_NAMES.map((n, i) => ({ key: n, name: SCORER_INFO[n].short, color: SERIES_COLORS[i % SERIES_COLORS.length]! }))}
              format={pct}
              height={240}
              {...axis}
            />
            <table className="mt-3 w-full text-left text-sm">
              <caption className="sr-only">Unsafe rate per scorer over the last {range}</caption>
              <thead>
                <tr>
                  {["Scorer", "Scores", "Unsafe", "Unsafe rate"].map((h) => (
                    <th key={h} scope="col" className="py-1 pr-3 font-medium">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {SCORER_NAMES.map((n) => {
                  const scores = buckets.reduce((a, b) => a + (b.scores[n]?.scores ?? 0), 0);
                  const unsafe = buckets.reduce((a, b) => a + (b.scores[n]?.unsafe ?? 0), 0);
                  return (
                    <tr key={n} className="border-t border-zinc-200 dark:border-zinc-800">
                      <th scope="row" className="py-1 pr-3 font-medium">
                        {SCORER_INFO[n].short}
                      </th>
                      <td className="pr-3">{count(scores)}</td>
                      <td className="pr-3">{count(unsafe)}</td>
                      <td className="pr-3">{scores ? pct(unsafe / scores) : "—"}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </Card>
        </>
      )}
    </div>
  );
}
