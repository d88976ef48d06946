/**
 * `npm run stripe:stand-in`: the local Stripe stand-in (scripts/lib/stripe-stand-in.ts) for
 * offline development, forwarding signed events to the API's webhook like
 * `stripe listen --forward-to`. Options: `--port N` (default 12111), `--forward-to URL`
 * (default http://127.0.0.1:8787/webhook/payment). Prices and the signing secret come from
 * STRIPE_PRICE_PRO|TEAM|ENTERPRISE and PAYMENT_WEBHOOK_SECRET, with stand-in defaults; the
 * variables `npm run dev` needs are printed. Ctrl-C stops it.
 */
import { parseArgs } from "node:util";
import { startStripeStandIn } from "./lib/stripe-stand-in";

const { values } = parseArgs({
  options: { port: { type: "string", default: process.env.STRIPE_STAND_IN_PORT ?? "12111" }, "forward-to": { type: "string", default: "http://127.0.0.1:8787/webhook/payment" } },
});

const env = {
  STRIPE_PRICE_PRO: process.env.STRIPE_PRICE_PRO || "price_standin_pro",
  STRIPE_PRICE_TEAM: process.env.STRIPE_PRICE_TEAM || "price_standin_team",
  STRIPE_PRICE_ENTERPRISE: process.env.STRIPE_PRICE_ENTERPRISE || "price_standin_enterprise",
  PAYMENT_WEBHOOK_SECRET: process.env.PAYMENT_WEBHOOK_SECRET || "whsec_standin_local_development_only",
};

const standIn = await startStripeStandIn({
  port: Number(values.port),
  prices: [
    { id: env.STRIPE_PRICE_PRO, unitAmount: 4900, nickname: "Sightline Pro" },
    { id: env.STRIPE_PRICE_TEAM, unitAmount: 19900, nickname: "Sightline Team" },
    { id: env.STRIPE_PRICE_ENTERPRISE, unitAmount: 99900, nickname: "Sightline Enterprise" },
  ],
  webhook: { url: values["forward-to"], secret: env.PAYMENT_WEBHOOK_SECRET },
  log: (line) => console.log(line),
});

console.log(`▶ Stripe stand-in on ${standIn.url}, forwarding events to ${values["forward-to"]}`);
console.log("  Start the stack with these variables (npm run dev passes them to the API worker):\n");
// Return pages on the API's own origin, for trying the flow without a dashboard.
const api = new URL(values["forward-to"]);
const origins = [api.origin, `${api.protocol}//localhost:${api.port}`].join(",");
const vars = { STRIPE_API_BASE: standIn.url, STRIPE_SECRET_KEY: "sk_test_standin", ...env, BILLING_RETURN_ORIGINS: process.env.BILLING_RETURN_ORIGINS || origins };
console.log(`    ${Object.entries(vars).map(([k, v]) => `${k}=${v}`).join(" \\\n    ")} \\\n    npm run dev\n`);
console.log("  Ctrl-C stops it.");

const stop = () => void standIn.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
