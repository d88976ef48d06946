/** A webhook endpoint for the stand-in's tests: verifies each delivery with the stripe library and keeps the event. */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/** A listening receiver: its URL, the verified events in arrival order, and its server. */
export interface Receiver {
  url: string;
  events: Stripe.Event[];
  server: Server;
}

/** Starts a receiver that accepts events signed with `secret` (400 otherwise). */
export async function startReceiver(secret: string): Promise<Receiver> {
  const events: Stripe.Event[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (p: Buffer) => parts.push(p));
    req.on("end", () => {
      Stripe.webhooks
        .constructEventAsync(Buffer.concat(parts).toString("utf8"), String(req.headers["stripe-signature"]), secret)
        .then((event) => {
          events.push(event);
          res.writeHead(200).end("{}");
        })
        .catch(() => res.writeHead(400).end("bad signature"));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhook`, events, server };
}
