/**
 * `npm run bench:password`: CPU time of one dashboard password hash, ours (PBKDF2-SHA-256,
 * 100,000 iterations through WebCrypto; dashboard/server/auth/password.ts) against Better Auth's
 * default (scrypt N=16384, r=16, p=1 in JavaScript, @noble/hashes). Sign-up hashes once,
 * sign-in verifies once. Measured in Node: the scrypt is the same JavaScript workerd would
 * run; PBKDF2 is native in both (OpenSSL here, BoringSSL in workerd), so read it as an
 * estimate of the Worker's CPU time per sign-in. Workers' CPU limit per request: 10 ms on the
 * free plan, 30 s by default on paid plans (https://developers.cloudflare.com/workers/platform/limits/#cpu-time).
 *
 * Writes bench/results/dashboard-password.md. BENCH_PASSWORD_RUNS (default 20).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { cpus } from "node:os";
import { join } from "node:path";
import { hashPassword as scryptHash } from "better-auth/crypto";
import { hashPassword, verifyPassword } from "../../dashboard/server/auth/password";
import { ROOT } from "../../scripts/lib/postgres";

const RUNS = Number(process.env.BENCH_PASSWORD_RUNS ?? 20);

async function cpuMs(fn: () => Promise<unknown>): Promise<number[]> {
  await fn(); // warm-up
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(start);
    out.push((used.user + used.system) / 1000);
  }
  return out.sort((a, b) => a - b);
}

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const stored = await hashPassword("correct horse battery");
const rows = [
  { what: "PBKDF2-SHA-256 100k, hash (sign-up)", ms: await cpuMs(() => hashPassword("correct horse battery")) },
  { what: "PBKDF2-SHA-256 100k, verify (sign-in)", ms: await cpuMs(() => verifyPassword({ hash: stored, password: "correct horse battery" })) },
  { what: "Better Auth default scrypt, hash", ms: await cpuMs(() => scryptHash("correct horse battery")) },
];
const lines = [
  "# Dashboard password hashing",
  "",
  `CPU time per operation (process.cpuUsage), ${RUNS} runs after a warm-up, Node ${process.version}, ${cpus()[0]?.model ?? "?"} x ${cpus().length}. Written by \`npm run bench:password\`.`,
  "",
  "| operation | p50 (ms) | p90 (ms) | max (ms) |",
  "|---|---:|---:|---:|",
  ...rows.map((r) => `| ${r.what} | ${pct(r.ms, 50).toFixed(1)} | ${pct(r.ms, 90).toFixed(1)} | ${r.ms.at(-1)!.toFixed(1)} |`),
  "",
];
mkdirSync(join(ROOT, "bench/results"), { recursive: true });
writeFileSync(join(ROOT, "bench/results/dashboard-password.md"), lines.join("\n"));
console.log(lines.join("\n"));
