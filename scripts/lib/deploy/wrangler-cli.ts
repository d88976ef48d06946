/**
 * Calls the `wrangler` CLI for `npm run deploy` and reads its answers. Every account operation
 * goes through here, so tests can put a recording stand-in in its place (SIGHTLINE_WRANGLER:
 * path of the executable; default `wrangler`, which `npm run` finds in node_modules/.bin).
 * Formats read (wrangler 4.x source, wrangler-dist/cli.js): `whoami --json` (JSON object with
 * loggedIn, accounts), `queues list` and `hyperdrive list` (cli-table3 box tables, one row per
 * resource), `r2 bucket list` (blocks of `name:` / `creation_date:` lines), `secret list` (JSON
 * array of {name, type}), `pages project list --json` (JSON array with "Project Name"),
 * `deploy` (a `Deployed <name> triggers (…)` line followed by indented target URLs).
 */
import { spawn } from "node:child_process";
import { ROOT } from "../postgres";

/** What one wrangler run answered. */
export interface WranglerResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options of one wrangler run. */
export interface WranglerRunOptions {
  /** Written to stdin, then closed (e.g. a secret for `secret put`; never on the command line). */
  input?: string;
  /** Pass output through to the terminal as it comes (deploys, builds). */
  echo?: boolean;
}

const secretValues = new Set<string>();

/** Registers a secret value: it is replaced by `***` in every output this module passes on. */
export function registerSecret(value: string): void {
  if (value.length >= 4) secretValues.add(value);
}

/** `text` with every registered secret value (and a URL's password) replaced by `***`. */
export function redact(text: string): string {
  let out = text.replace(/(\w+:\/\/[^:/@\s]+:)[^@\s]+@/g, "$1***@");
  for (const v of secretValues) out = out.split(v).join("***");
  return out;
}

/** The executable to run (tests point this at a recording stand-in). */
export const wranglerBin = (): string => process.env.SIGHTLINE_WRANGLER || "wrangler";

/** Runs `wrangler args…` from the repository root; resolves with its exit code and output. */
export function wrangler(args: string[], opts: WranglerRunOptions = {}): Promise<WranglerResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(wranglerBin(), args, {
      cwd: ROOT,
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", FORCE_COLOR: "0", CI: process.env.CI ?? "" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d;
      if (opts.echo) process.stdout.write(redact(String(d)));
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d;
      if (opts.echo) process.stderr.write(redact(String(d)));
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}

/** Like `wrangler`, but throws (with wrangler's output) when it fails. */
export async function wranglerOk(args: string[], opts: WranglerRunOptions = {}): Promise<WranglerResult> {
  const r = await wrangler(args, opts);
  if (r.code !== 0) throw new Error(`wrangler ${args[0]} ${args[1] ?? ""} failed (${r.code}):\n${redact((r.stderr + r.stdout).trim().slice(-2000))}`);
  return r;
}

/** Rows of the cli-table3 box table(s) in `text` (wrangler's `logger.table`), keyed by header. */
export function parseTable(text: string): Record<string, string>[] {
  const rows = text
    .split("\n")
    .filter((l) => l.trimStart().startsWith("│"))
    .map((l) =>
      l
        .trim()
        .slice(1, -1)
        .split("│")
        .map((c) => c.trim()),
    );
  if (rows.length === 0) return [];
  const [head, ...body] = rows;
  return body.map((cells) => Object.fromEntries(head!.map((h, i) => [h, cells[i] ?? ""])));
}

/** Bucket names of `wrangler r2 bucket list` (`name:   <bucket>` lines). */
export const parseBucketNames = (text: string): string[] => [...text.matchAll(/^name:\s+(\S+)\s*$/gm)].map((m) => m[1]!);

/** The first JSON value (object or array) in `text`, after any banner lines. */
export function parseJson<T>(text: string): T {
  const start = text.search(/^[[{]/m);
  if (start < 0) throw new Error(`no JSON in wrangler's answer: ${text.slice(0, 200)}`);
  return JSON.parse(text.slice(start)) as T;
}

/** URLs `wrangler deploy` printed under its `Deployed <name> triggers` line. */
export function parseDeployedUrls(text: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => /^Deployed \S+ triggers/.test(l));
  if (at < 0) return [];
  const urls: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (!/^\s/.test(line)) break;
    const m = /(https:\/\/\S+)/.exec(line);
    if (m) urls.push(m[1]!);
  }
  return urls;
}
