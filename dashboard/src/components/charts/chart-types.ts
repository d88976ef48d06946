/**
 * The data and props of a time-series chart, shared by the figure (`TimeChart.tsx`) and its
 * on-demand Recharts plot (`TimePlot.tsx`), and the series colours the chart pages pick from.
 */

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
