/**
 * A Node HTTP server on 127.0.0.1 for the stand-ins of remote services that workerd tests reach
 * over the network (test/setup/webhook-receiver.ts, test/setup/judge-server.ts).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** The request's body as UTF-8 text. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Starts a server on a free port of 127.0.0.1 that answers with `handle` (500 when it throws),
 * unreferenced so it never holds the process open; resolves to its base URL
 * (`http://127.0.0.1:<port>`).
 */
export function startLoopbackServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => void handle(req, res).catch(() => res.writeHead(500).end()));
    server.listen(0, "127.0.0.1", () => {
      server.unref();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}
