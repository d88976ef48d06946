/**
 * Runs a program (bash, node, python3) the way a user would from a terminal, with a deadline,
 * and hands back its exit code and output.
 */
import { spawn } from "node:child_process";

/** What a finished program left. */
export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `command args` in `cwd` with exactly `env`; kills it after `timeoutMs`. */
export function runProgram(
  command: string,
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; timeoutMs?: number; input?: string },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString("utf8")));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${opts.timeoutMs} ms]`;
      child.kill("SIGKILL");
    }, opts.timeoutMs ?? 60_000);
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.input ?? "");
  });
}

/** A describable failure message for `expect(...).toBe(0)`-style checks. */
export function describeRun(what: string, r: RunResult): string {
  return `${what} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
}
