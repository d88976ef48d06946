/**
 * A time-series chart (Recharts) for the Overview and Safety pages: a time axis in the
 * browser's time zone, a value axis, a tooltip with the bucket's time and values, the total
 * in the caption, and an optional click on a bucket (`onBucket`, e.g. open the Requests page
 * filtered to that hour). Bars for counts, lines for rates and latencies.
 */
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, type TooltipContentProps, XAxis, YAxis } from "recharts";
import type { NameType, ValueType } from "recharts/types/component/DefaultTooltipContent";
import { cn } from "../ui";

/** One bucket: its start (epoch ms) and a value per series key (null: no data in the bucket). */
export type ChartPoint = { t: number } & Record<string, number | null>;

/** One line or bar series. */
export interface ChartSeries {
  key: string;
  name: string;
  /** A colour readable on white and on zinc-950 (3:1 for graphics, WCAG 1.4.11). */
  color: string;
}

/** Colours of series, in order (Tailwind 600-ish shades, readable on both themes). */
export const SERIES_COLORS = ["#4f46e5", "#dc2626", "#059669", "#d97706", "#0891b2", "#c026d3"];

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

/** The chart in a captioned figure. */
export function TimeChart({
  title,
  total,
  data,
  series,
  format,
  bucketMs,
  kind = "line",
  onBucket,
  height = 180,
  className,
}: {
  title: string;
  /** Shown beside the title, e.g. "1,234 in 24 h". */
  total?: string;
  data: ChartPoint[];
  series: ChartSeries[];
  format: (v: number) => string;
  bucketMs: number;
  kind?: "line" | "bar";
  onBucket?: (t: number) => void;
  height?: number;
  className?: string;
}) {
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
    <figure className={cn("flex flex-col gap-1 rounded-md border border-zinc-200 p-3 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300", className)}>
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-zinc-900 dark:text-zinc-100">{title}</span>
        {total && <span>{total}</span>}
      </figcaption>
      <div style={{ height }}>
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
            />
            <Tooltip
              content={tooltip}
              cursor={{ fill: "currentColor", fillOpacity: 0.08, stroke: "currentColor", strokeOpacity: 0.3 }}
              isAnimationActive={false}
            />
            {series.length > 1 && <Legend wrapperStyle={{ fontSize: 12 }} />}
            {series.map((s) =>
              kind === "bar" ? (
                <Bar key={s.key} dataKey={s.key} name={s.name} fill={s.color} isAnimationActive={false} />
              ) : (
                <Line key={s.key} dataKey={s.key} name={s.name} stroke={s.color} strokeWidth={2} dot={false} connectNulls={false} isAnimationActive={false} />
              ),
            )}
          </Chart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
