/**
 * A time-series chart for the Overview and Safety pages: a time axis in the browser's time
 * zone, a value axis, a tooltip with the bucket's time and values, the total in the caption,
 * and an optional click on a bucket (`onBucket`, e.g. open the Requests page filtered to that
 * hour). Bars for counts, lines for rates and latencies. The figure and its caption render at
 * once; the plot (Recharts, `TimePlot.tsx`) loads on demand. Its props and data types are in
 * `chart-types.ts`.
 */
import { lazy, Suspense } from "react";
import { cn } from "../ui";
import type { TimeChartProps } from "./chart-types";

const TimePlot = lazy(() => import("./TimePlot"));

/** Starts loading the plot's code early (e.g. when the address is a chart page), before any chart renders. */
export const preloadCharts = (): void => void import("./TimePlot");

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
