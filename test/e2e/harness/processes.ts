/**
 * Process and port checks for stopping a stack: which processes of a process group are still
 * alive (zombies do not count), and which loopback ports still accept connections.
 */
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";

/**
 * Pids of the live (not zombie) processes in process group `pgid`. Reads /proc on Linux; where
 * there is none, falls back to `kill(-pgid, 0)` (then zombies count as alive).
 */
export function livePids(pgid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync("/proc").filter((e) => /^\d+$/.test(e));
  } catch {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  const pids: number[] = [];
  for (const pid of entries) {
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid pgrp ..."; comm may contain spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z" && state !== "X") pids.push(Number(pid));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** True when something accepts TCP connections on 127.0.0.1:`port`. */
export function portAnswers(port: number, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** The ports of `ports` that accept connections on 127.0.0.1. */
export async function portsInUse(ports: number[]): Promise<number[]> {
  const answers = await Promise.all(ports.map((p) => portAnswers(p)));
  return ports.filter((_, i) => answers[i]);
}
