/**
 * A time-series chart for the Overview and Safety pages: a time axis in the browser's time
 * zone, a value axis, a tooltip with the bucket's time and values, the total in the caption,
 * and an optional click on a bucket (`onBucket`, e.g. open the Requests page filtered to that
 * hour). Bars for counts, lines for rates and latencies. The figure and its caption render at
 * once; the plot (Recharts, `TimePlot.tsx`) loads on demand.
 */
import { lazy, Suspense } from "react";
import { cn } from "../ui";

const TimePlot = lazy(() => import("./TimePlot"));

/** Starts loading the plot's code early (e.g. when the address is a chart page), before any chart renders. */
export const preloadCharts = (): void => void import("./TimePlot");

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

/** Props of `TimeChart`. */
export interface TimeChartProps {
  title: string;
  /** Shown beside the title, e.g. "1,234 in 24 h". */
  total?: string;
  data: ChartPoint[];
  series: ChartSeries[];
  format: (v: number) => string;
  /** Width of a bucket, ms (hourly buckets get hour ticks, daily ones dates). */
  bucketMs: number;
  kind?: "line" | "bar";
  onBucket?: (t: number) => void;
  /** Plot height, px. */
  height?: number;
  /** Whole numbers only on the value axis (counts). */
  integer?: boolean;
  className?: string;
}

/** The chart in a captioned figure. */
export function TimeChart(props: TimeChartProps) {
  const { title, total, height = 180, className } = props;
  return (
    <figure className={cn("flex flex-col gap-1 rounded-md border border-zinc-200 p-3 text-zinc-700 dark:border-zinc-800 dark:text-zinc-300", className)}>
      <figcaption className="flex items-baseline justify-between gap-2 text-sm">
        <span className="font-medium text-zinc-900 dark:text-zinc-100">{title}</span>
        {total && <span>{total}</span>}
      </figcaption>
      <div style={{ height }}>
        <Suspense fallback={<p className="pt-4 text-sm">Loading chart…</p>}>
          <TimePlot {...props} />
        </Suspense>
      </div>
    </figure>
  );
}
