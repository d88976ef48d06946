/**
 * `.dev.vars`: local secrets of the stack (git-ignored). Created on first use with a fresh
 * INTERNAL_API_SECRET (32 random bytes, hex) so the dev stack and the CLI agree on it.
 */
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./postgres";

const FILE = join(ROOT, ".dev.vars");

/** The API worker's billing variables (Stripe and return origins): `npm run dev` passes them on, the e2e harness clears them to act as a fresh clone. */
export const BILLING_VARS = [
  "STRIPE_API_BASE",
  "STRIPE_SECRET_KEY",
  "PAYMENT_WEBHOOK_SECRET",
  "STRIPE_PRICE_PRO",
  "STRIPE_PRICE_TEAM",
  "STRIPE_PRICE_ENTERPRISE",
  "BILLING_RETURN_ORIGINS",
];

/** Parses KEY=value lines (no quotes handling beyond stripping one pair). */
export function readDevVars(): Record<string, string> {
  if (!existsSync(FILE)) return {};
  const vars: Record<string, string> = {};
  for (const line of readFileSync(FILE, "utf8").split("\n")) {
    const m = /^\s*([A-Z_][A-Z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m && m[2] !== "") vars[m[1]!] = m[2]!.replace(/^"(.*)"$/, "$1");
  }
  return vars;
}

/** The internal secret from the environment or `.dev.vars`, creating `.dev.vars` if needed. */
export function ensureInternalSecret(): string {
  if (process.env.INTERNAL_API_SECRET) return process.env.INTERNAL_API_SECRET;
  const existing = readDevVars().INTERNAL_API_SECRET;
  if (existing) return existing;
  const secret = randomBytes(32).toString("hex");
  const template = existsSync(join(ROOT, ".dev.vars.example")) ? readFileSync(join(ROOT, ".dev.vars.example"), "utf8") : "INTERNAL_API_SECRET=\n";
  writeFileSync(FILE, template.replace(/^INTERNAL_API_SECRET=.*$/m, `INTERNAL_API_SECRET=${secret}`), { mode: 0o600 });
  return secret;
}
