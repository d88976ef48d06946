/**
 * A WebSocket-to-TCP relay standing in for Neon's WebSocket proxy in tests, as Neon documents
 * for local development (neondatabase/serverless, "Local development": wsproxy). The driver
 * connects to `ws://127.0.0.1:<port>/v1?address=<host>:<port>`; each binary message is written
 * to a TCP connection to that Postgres address and each TCP chunk is sent back as a message.
 */
import { createRequire } from "node:module";
import { createConnection } from "node:net";
import type * as WsTypes from "ws";

// Loaded through require: under Vite's transform a bare import resolves to ws's browser stub.
const { WebSocketServer } = createRequire(import.meta.url)("ws") as typeof WsTypes;

/** Starts the relay on an ephemeral loopback port. Only loopback targets are relayed. */
export async function startNeonRelay(): Promise<{ port: number; close(): Promise<void> }> {
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  wss.on("connection", (ws, req) => {
    const address = new URL(req.url ?? "/", "http://relay").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    if (!host || !port || !/^(127\.0\.0\.1|localhost)$/.test(host)) return ws.close(1008, "address not allowed");
    const socket = createConnection({ host, port: Number(port) });
    socket.on("data", (chunk) => ws.readyState === ws.OPEN && ws.send(chunk));
    socket.on("close", () => ws.close());
    socket.on("error", () => ws.close());
    ws.on("message", (data) => socket.write(data as Buffer));
    ws.on("close", () => socket.destroy());
  });
  await new Promise<void>((ok) => wss.once("listening", ok));
  const { port } = wss.address() as { port: number };
  return { port, close: () => new Promise<void>((ok) => wss.close(() => ok())) };
}
