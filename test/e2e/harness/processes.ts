/**
 * Commands run in a process group of their own, as from a terminal, and the checks for
 * stopping them: which processes of a group are still alive (zombies do not count), and which
 * loopback ports still accept connections.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { connect } from "node:net";

/** A command running in its own process group (its pid is the group id). */
export interface GroupProcess {
  child: ChildProcess;
  pgid: number;
  /** Everything it wrote so far (stdout and stderr interleaved). */
  output(): string;
  /** Its exit code and signal, once its pipes are drained ("close", not "exit"), so the last lines are in `output()`. */
  closed: Promise<[number | null, NodeJS.Signals | null]>;
  /** Sends `signal` to every process of the group (nothing when none is left). */
  signal(signal: NodeJS.Signals): void;
  /** Drops the safety net that SIGKILLs the group when this process exits first. */
  release(): void;
  /** Waits until it printed `text`; resolves with why not (ended, or `timeoutMs` passed), else undefined. */
  printed(text: string, timeoutMs: number): Promise<string | undefined>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `command args` in a new process group with piped output, mirrored to stderr with `echo`. */
export function startGroup(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; echo?: boolean }): GroupProcess {
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const pgid = child.pid!;
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pgid, sig);
    } catch {}
  };
  // Safety net: never leave the group behind if this process ends abruptly.
  const killGroup = () => signal("SIGKILL");
  process.once("exit", killGroup);
  let out = "";
  const append = (d: Buffer) => {
    out += d.toString("utf8");
    if (opts.echo) process.stderr.write(d);
  };
  child.stdout!.on("data", append);
  child.stderr!.on("data", append);
  const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once("close", (code, sig) => resolve([code, sig])));
  const printed = async (text: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (!out.includes(text)) {
      if (child.exitCode !== null || child.signalCode !== null) return `exited (${child.exitCode ?? child.signalCode})`;
      if (Date.now() > deadline) return "did not come up in time";
      await sleep(100);
    }
    return undefined;
  };
  return { child, pgid, output: () => out, closed, signal, release: () => process.removeListener("exit", killGroup), printed };
}

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
