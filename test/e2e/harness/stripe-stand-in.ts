/**
 * The Stripe stand-in as the README's "Billing" section has a user run it: `npm run
 * stripe:stand-in` as a child process (own process group, like a second terminal), with its
 * port and `--forward-to` pointed at the e2e stack's webhook. It is started before the stack,
 * because the variables it prints (STRIPE_API_BASE, the price ids, the signing secret, the
 * return origins) are what `npm run dev` is then started with. Ctrl-C (SIGINT) stops it.
 */
import { ROOT } from "../../../scripts/lib/postgres";
import { livePids, portsInUse, startGroup } from "./processes";

/** Options of `startStripeStandIn`. */
export interface StripeStandInOptions {
  port: number;
  /** Where the stand-in delivers its signed events (the stack's POST /webhook/payment). */
  forwardTo: string;
  /** How long the stand-in may take to print its variables (ms). */
  startTimeoutMs?: number;
  /** Mirror its output to this process's stderr. */
  echo?: boolean;
}

/** A running `npm run stripe:stand-in`. */
export interface StripeStandInProcess {
  /** Base URL of the stand-in (the printed STRIPE_API_BASE). */
  url: string;
  /** The variables it printed for `npm run dev`, in order. */
  vars: Record<string, string>;
  /** Everything it wrote so far (one line per delivered event among it). */
  output(): string;
  /** Ctrl-C, then SIGKILL for whatever of its group is left after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Variables a developer may have exported that would change what the stand-in prints. */
const INHERITED = ["STRIPE_STAND_IN_PORT", "STRIPE_PRICE_PRO", "STRIPE_PRICE_TEAM", "STRIPE_PRICE_ENTERPRISE", "PAYMENT_WEBHOOK_SECRET", "BILLING_RETURN_ORIGINS"];
/** A printed variable line: `    NAME=value \`. */
const VAR_LINE = /^\s+([A-Z][A-Z0-9_]*)=(\S+) \\$/gm;
/** Last line the stand-in prints once it listens. */
const READY_LINE = "Ctrl-C stops it.";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Starts `npm run stripe:stand-in` and resolves once it printed the variables for the stack. */
export async function startStripeStandIn(opts: StripeStandInOptions): Promise<StripeStandInProcess> {
  if ((await portsInUse([opts.port])).length > 0) throw new Error(`port ${opts.port} in use, cannot start the Stripe stand-in`);
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: "0" };
  for (const name of INHERITED) delete env[name];
  const args = ["run", "stripe:stand-in", "--", "--port", String(opts.port), "--forward-to", opts.forwardTo];
  const group = startGroup("npm", args, { cwd: ROOT, env, echo: opts.echo });
  const stop = async (timeoutMs = 10_000) => {
    group.signal("SIGINT");
    await Promise.race([group.closed, sleep(timeoutMs)]);
    if (livePids(group.pgid).length > 0) group.signal("SIGKILL");
    group.release();
  };

  const notUp = await group.printed(READY_LINE, opts.startTimeoutMs ?? 60_000);
  if (notUp) {
    await stop(5_000);
    throw new Error(`npm run stripe:stand-in ${notUp}; its output:\n${group.output().slice(-4000)}`);
  }
  const vars = Object.fromEntries([...group.output().matchAll(VAR_LINE)].map((m) => [m[1]!, m[2]!]));
  if (!vars.STRIPE_API_BASE) {
    await stop(5_000);
    throw new Error(`npm run stripe:stand-in printed no STRIPE_API_BASE; its output:\n${group.output().slice(-4000)}`);
  }
  return { url: vars.STRIPE_API_BASE, vars, output: group.output, stop };
}
