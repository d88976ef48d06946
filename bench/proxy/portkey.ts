/**
 * Portkey's open-source AI gateway (`@portkey-ai/gateway`, a devDependency) as a peer in
 * `npm run bench:proxy`: the Node build the package ships (`build/start-server.js`, Hono on
 * `@hono/node-server`), started headless (no console UI) on a free port and pointed per request
 * at the bench's upstream with Portkey's routing headers. Nothing is logged: the gateway as
 * installed has no log store (its logging lives in Portkey's hosted service). Its streaming
 * path fails on Node as published; portkey-mutable-headers.mjs applies the fix proposed upstream.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

/** A running gateway: its base URL, its process id (for RSS and CPU) and how to stop it. */
export interface PortkeyGateway {
  url: string;
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/**
 * Headers that route a call through the gateway to `upstream` (an OpenAI-compatible base URL
 * without `/v1`): provider `openai` with a custom host (Portkey docs, "Custom Host"), and
 * `x-portkey-forward-headers` naming the bench's own `x-bench-*` headers, which the gateway
 * otherwise drops before the provider call.
 */
export function portkeyHeaders(upstream: string): Record<string, string> {
  return {
    "x-portkey-provider": "openai",
    "x-portkey-custom-host": `${upstream}/v1`,
    "x-portkey-forward-headers": "x-bench-chunks,x-bench-pace-ms,x-bench-chunk-bytes",
  };
}

/** A free TCP port on 127.0.0.1, chosen by the kernel. */
async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Starts the gateway (`node build/start-server.js --port=<free> --headless`) and waits until it
 * answers, at most 60 s. Throws when the package is missing or the process exits early.
 */
export async function startPortkey(): Promise<PortkeyGateway> {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve("@portkey-ai/gateway/package.json");
  const { version } = require(manifest) as { version: string };
  const port = await freePort();
  const preload = join(import.meta.dirname, "portkey-mutable-headers.mjs");
  const child = spawn(process.execPath, ["--import", preload, join(dirname(manifest), "build/start-server.js"), `--port=${port}`, "--headless"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Portkey gateway exited with ${child.exitCode}`);
    try {
      const res = await fetch(url);
      await res.body?.cancel();
      break;
    } catch {
      if (Date.now() > deadline) throw new Error("Portkey gateway did not start within 60 s");
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  return {
    url,
    pid: child.pid!,
    version,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
