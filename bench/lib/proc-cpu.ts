/**
 * CPU time by process, read from Linux `/proc/<pid>/stat` (proc(5): fields 14-17, utime, stime,
 * cutime and cstime, in clock ticks of 10 ms: `getconf CLK_TCK` is 100 on Linux). Used by the
 * benchmarks to say where the machine's cores went during a run: take a snapshot before and
 * after, then `cpuPerRequest(before, after, n)`. A process that exits during the run counts
 * under its parent's name once the parent has reaped it (cutime/cstime): PostgreSQL backends
 * count as `postgres` through the postmaster.
 */
import { readdirSync, readFileSync } from "node:fs";

/** CPU milliseconds used so far by each live process, by pid, with its name (`comm`). */
export type CpuSnapshot = Map<number, { name: string; ms: number; ppid: number }>;

const TICK_MS = 10;

/** Reads utime + stime + cutime + cstime of every process; this process is named `load generator`. */
export function cpuSnapshot(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const name = pid === String(process.pid) ? "load generator" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      out.set(Number(pid), { name, ms: ticks * TICK_MS, ppid: Number(fields[1]) });
    } catch {
      // the process exited between readdir and read
    }
  }
  return out;
}

/**
 * CPU microseconds per request of the named processes between two snapshots, for `requests`
 * requests: `{workerd: 810, postgres: 470, ...}`, rounded to whole microseconds. Processes
 * are matched by pid; one started during the run counts in full, one that exited during the
 * run is not counted (its time shows under its parent once reaped). The tick is 10 ms, so
 * runs should use thousands of requests.
 *
 * `roots` limits a name to one process tree on a shared machine: `{postgres: <postmaster pid>}`
 * counts that postmaster and its direct children (the backends), not another PostgreSQL.
 */
export function cpuPerRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
  names: string[],
  roots: Partial<Record<string, number>> = {},
): Record<string, number> {
  const used: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const [pid, { name, ms, ppid }] of after) {
    if (!(name in used)) continue;
    const root = roots[name];
    if (root !== undefined && pid !== root && ppid !== root) continue;
    const earlier = before.get(pid);
    used[name]! += ms - (earlier?.name === name ? earlier.ms : 0);
  }
  return Object.fromEntries(names.map((n) => [n, Math.round((used[n]! * 1000) / requests)]));
}
