/**
 * Runs a TypeScript fixture script in a child Node process (through the repository's
 * `tsx`), as an application would run: the tests then see how and when it exits.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..", "..", "..");

/** What the child did: exit code, its stdout, and the wall time until it exited in ms. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  ms: number;
}

/** Runs `script` with `env` added to this process's environment; stderr is passed through. */
export function runScript(script: string, env: Record<string, string>): Promise<ChildResult> {
  const t0 = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(join(ROOT, "node_modules", ".bin", "tsx"), [script], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.on("error", reject);
    child.on("exit", (code) => resolve({ code, stdout, ms: Date.now() - t0 }));
  });
}
