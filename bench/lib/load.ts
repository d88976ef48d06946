/**
 * A closed-loop load generator for the benchmarks: `concurrency` workers run `task(i)` for
 * i < n, and the run reports throughput, latency percentiles and the CPU each named process used
 * per task (./proc-cpu.ts).
 */
import { cpuPerRequest, cpuSnapshot } from "./proc-cpu";

/** Result of one measured run: tasks per second, latency percentiles (ms), CPU µs per task by process. */
export interface Run {
  perSecond: number;
  p50: number;
  p99: number;
  wallMs: number;
  cpuUsPerRequest: Record<string, number>;
}

/** Which processes' CPU a run counts (names as in /proc), and the roots that limit a name to one process tree. */
export interface CpuScope {
  processes: string[];
  roots?: Partial<Record<string, number>>;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Runs `task(i)` for i < n with `concurrency` workers; returns throughput, latency and CPU per task. */
export async function load(n: number, concurrency: number, scope: CpuScope, task: (i: number) => Promise<void>): Promise<Run> {
  const latencies: number[] = [];
  let next = 0;
  const cpuBefore = cpuSnapshot();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        const i = next++;
        const t0 = performance.now();
        await task(i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const cpuUsPerRequest = cpuPerRequest(cpuBefore, cpuSnapshot(), n, scope.processes, scope.roots ?? {});
  latencies.sort((a, b) => a - b);
  return { perSecond: (n / wallMs) * 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99), wallMs, cpuUsPerRequest };
}

/** `load` over batches: `rows` items in batches of `batchSize`; rates and CPU per item. */
export async function loadBatches(rows: number, batchSize: number, concurrency: number, scope: CpuScope, task: (batch: number) => Promise<void>): Promise<Run> {
  const run = await load(Math.ceil(rows / batchSize), concurrency, scope, task);
  const perCall = Object.fromEntries(Object.entries(run.cpuUsPerRequest).map(([k, v]) => [k, Math.round(v / batchSize)]));
  return { ...run, perSecond: run.perSecond * batchSize, cpuUsPerRequest: perCall };
}
