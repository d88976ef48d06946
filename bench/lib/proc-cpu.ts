/**
 * CPU time by process, read from Linux `/proc/<pid>/stat` (fields 14-15, utime and stime, in
 * clock ticks of 10 ms: `getconf CLK_TCK` is 100 on Linux). Used by the benchmarks to say
 * where the machine's cores went during a run: take a snapshot before and after, then
 * `cpuPerRequest(before, after, n)`. Processes that exit during the run are not counted.
 */
import { readdirSync, readFileSync } from "node:fs";

/** CPU milliseconds used so far, by process name (`comm`); this process is `load generator`. */
export type CpuSnapshot = Record<string, number>;

const TICK_MS = 10;

/** Sums utime + stime of every process, grouped by name; this process counts as `load generator`. */
export function cpuSnapshot(): CpuSnapshot {
  const out: CpuSnapshot = {};
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const name = pid === String(process.pid) ? "load generator" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out[name] = (out[name] ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // the process exited between readdir and read
    }
  }
  return out;
}

/**
 * CPU microseconds per request of the named processes between two snapshots, for `requests`
 * requests: `{workerd: 810, postgres: 470, ...}`, rounded to whole microseconds. The tick is
 * 10 ms, so runs should use thousands of requests.
 */
export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number, names: string[]): Record<string, number> {
  return Object.fromEntries(names.map((n) => [n, Math.round((((after[n] ?? 0) - (before[n] ?? 0)) * 1000) / requests)]));
}
