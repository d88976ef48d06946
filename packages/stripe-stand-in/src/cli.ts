/**
 * `npm run stripe:stand-in`: the local Stripe stand-in (./server.ts) on its
 * own, forwarding signed events to the API's webhook like `stripe listen --forward-to`.
 * `npm run dev` already starts it when no STRIPE_SECRET_KEY is configured; this is for a stack
 * started some other way. Options: `--port N` (default 12111), `--forward-to URL` (default
 * http://127.0.0.1:8787/webhook/payment), `--state FILE` (default .data/stripe-stand-in.json:
 * customers, sessions and subscriptions survive a restart). Prices and the signing secret come from
 * STRIPE_PRICE_PRO|TEAM|ENTERPRISE and PAYMENT_WEBHOOK_SECRET, with the stand-in's test values
 * (./dev.ts); the variables the API worker needs are printed. Ctrl-C stops it.
 */
import { parseArgs } from "node:util";
import { bothHosts, STAND_IN_PORT, startDevStripe } from "./dev.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.STRIPE_STAND_IN_PORT ?? String(STAND_IN_PORT) },
    "forward-to": { type: "string", default: "http://127.0.0.1:8787/webhook/payment" },
    state: { type: "string", default: ".data/stripe-stand-in.json" },
  },
});

// Return pages on the API's own origin, for trying the flow without a dashboard.
const api = new URL(values["forward-to"]);
const origins = process.env.BILLING_RETURN_ORIGINS ? process.env.BILLING_RETURN_ORIGINS.split(",") : bothHosts(Number(api.port || 80));
const standIn = await startDevStripe({
  port: Number(values.port),
  forwardTo: values["forward-to"],
  returnOrigins: origins,
  env: process.env,
  stateFile: values.state,
  log: (line) => console.log(line),
});

console.log(`▶ Stripe stand-in on ${standIn.url}, forwarding events to ${values["forward-to"]}`);
console.log("  The API worker's variables for it:\n");
console.log(
  `    ${Object.entries(standIn.vars)
    .map(([k, v]) => `${k}=${v}`)
    .join(" \\\n    ")}\n`,
);
console.log("  Ctrl-C stops it.");

const stop = () => void standIn.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
