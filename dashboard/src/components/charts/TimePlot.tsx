/**
 * The Recharts part of `TimeChart` (loaded on demand: Recharts is most of the chart pages'
 * code, and the page's heading, totals and captions need none of it).
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, type TooltipContentProps, XAxis, YAxis } from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import type { TimeChartProps } from "./chart-types";

/** Formats a bucket start for the axis: hours for hourly buckets, dates for daily ones. */
function tickLabel(t: number, bucketMs: number): string {
  const d = new Date(t);
  return bucketMs < 86_400_000
    ? d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })
    : d.toLocaleDateString(undefined, { month: "short", day: "numeric" });
}

/** The bucket's span for the tooltip, in local time. */
function bucketLabel(t: number, bucketMs: number): string {
  const from = new Date(t);
  if (bucketMs >= 86_400_000) return from.toLocaleDateString(undefined, { weekday: "short", year: "numeric", month: "short", day: "numeric" });
  const to = new Date(t + bucketMs);
  return `${from.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" })} – ${to.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" })}`;
}

/** The plot: axes, grid, tooltip, legend and the series. */
export default function TimePlot({ data, series, format, bucketMs, kind = "line", onBucket, integer = false, title }: TimeChartProps) {
  const Chart = kind === "bar" ? BarChart : LineChart;
  const tooltip = ({ active, payload, label }: TooltipContentProps<ValueType, NameType>) =>
    active && payload?.length ? (
      <div role="status" className="rounded-md border border-zinc-300 bg-white px-3 py-2 text-xs shadow-md dark:border-zinc-700 dark:bg-zinc-900">
        <p className="font-medium">{bucketLabel(Number(label), bucketMs)}</p>
        {payload.map((p) => (
          <p key={String(p.dataKey)}>
            <span aria-hidden="true" style={{ color: p.color }}>
              ●{" "}
            </span>
            {p.name}: {p.value === null || p.value === undefined ? "no data" : format(Number(p.value))}
          </p>
        ))}
        {onBucket && <p className="mt-1 text-zinc-600 dark:text-zinc-400">Click to see these requests</p>}
      </div>
    ) : null;
  return (
    <ResponsiveContainer width="100%" height="100%">
      <Chart
        data={data}
        margin={{ top: 6, right: 8, bottom: 0, left: 0 }}
        title={title}
        className={onBucket ? "cursor-pointer" : undefined}
        onClick={onBucket ? (s) => s.activeLabel !== undefined && onBucket(Number(s.activeLabel)) : undefined}
      >
        <CartesianGrid stroke="currentColor" strokeOpacity={0.15} vertical={false} />
        <XAxis
          dataKey="t"
          tickFormatter={(t) => tickLabel(Number(t), bucketMs)}
          tick={{ fill: "currentColor", fontSize: 11 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          minTickGap={24}
        />
        <YAxis
          tickFormatter={(v) => format(Number(v))}
          tick={{ fill: "currentColor", fontSize: 11 }}
          stroke="currentColor"
          strokeOpacity={0.4}
          width={56}
          allowDecimals={!integer}
          // An empty range still gets a readable axis (0 to 1, i.e. 0-100% for rates).
          domain={[0, (max: number) => (max > 0 ? max : 1)]}
        />
        <Tooltip content={tooltip} cursor={{ fill: "currentColor", fillOpacity: 0.08, stroke: "currentColor", strokeOpacity: 0.3 }} isAnimationActive={false} />
        {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} itemSorter={null} />}
        {series.map((s) =>
          kind === "bar" ? (
            <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} isAnimationActive={false} />
          ) : (
            <Line
              key={s.key}
              dataKey={s.key}
              name={s.name}
              stroke={s.color}
              strokeWidth={2}
              // A bucket between two empty ones has no line to draw: its dot shows it.
              dot={{ r: 2.5, fill: s.color }}
              activeDot={{ r: 4 }}
              connectNulls={false}
              isAnimationActive={false}
            />
          ),
        )}
      </Chart>
    </ResponsiveContainer>
  );
}
