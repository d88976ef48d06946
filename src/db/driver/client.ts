/**
 * Database access for the workers: one `createDb(config)` for both deployment paths.
 *
 * - Default: the Hyperdrive binding `HYPERDRIVE` with `pg` (node-postgres). Hyperdrive pools
 *   connections at the edge, so a new client per request is cheap (Cloudflare, "Connect to
 *   PostgreSQL": https://developers.cloudflare.com/hyperdrive/examples/connect-to-postgres/).
 * - Alternative: a `DATABASE_URL` secret with `@neondatabase/serverless` (WebSocket Pool),
 *   created and ended inside the request, as Neon documents for Workers.
 *
 * Workers may not share I/O objects between requests, so each request creates its own
 * handle and ends it with `close()` (in `waitUntil`). Both pools are guarded (`./unavailable.ts`):
 * a failure without an answer from the server rejects with `DatabaseUnreachableError`.
 */
import { Pool as NeonPool, neonConfig } from "@neondatabase/serverless";
import { drizzle as drizzleNeon } from "drizzle-orm/neon-serverless";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { Duplex } from "node:stream";
import { Pool as PgPool } from "pg";
import { CloudflareSocket } from "pg-cloudflare";
import { coalescedWrites, type SocketWrite } from "./coalesced-writes";
import { type CloudflareSocketReads, largeReads } from "./large-reads";
import { guardDriver } from "./unavailable";

/**
 * A drizzle database over either driver. Built without a relational schema: the code uses
 * only the SQL builders, and drizzle derives the relational config of a schema on every
 * construction, which is once per request here (about 0.1 ms of CPU per request).
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/** A per-request database handle: `db` for queries, `close()` to release connections. */
export interface DbHandle {
  db: Db;
  /** Which driver serves this handle. */
  driver: "hyperdrive-pg" | "neon-serverless";
  close(): Promise<void>;
}

/**
 * Up to this many connections per request (list routes run the page query and the count in
 * parallel). Connections open lazily, on the first query.
 */
const MAX_CONNECTIONS_PER_REQUEST = 2;

/**
 * Where the database is, as each worker's configuration gives it (the `HYPERDRIVE` binding, or
 * the `DATABASE_URL` and `NEON_WSPROXY` variables).
 */
export interface DbConfig {
  /** The Hyperdrive binding (or anything with its `connectionString`). */
  hyperdrive?: { connectionString: string };
  /** A Postgres URL used with @neondatabase/serverless instead of Hyperdrive. */
  databaseUrl?: string;
  /** Local stand-in for Neon's WebSocket proxy, `host:port/path`; unset in production. */
  neonWsProxy?: string;
}

/**
 * Creates the request's database handle. `databaseUrl` (Neon path) wins when set; otherwise
 * the Hyperdrive binding is used. Throws when neither is configured.
 */
export function createDb(config: DbConfig): DbHandle {
  if (config.databaseUrl) {
    if (config.neonWsProxy) {
      // Local stand-in for Neon's proxy: plain ws:// to a WebSocket-to-TCP relay, which then
      // speaks the Postgres protocol (with its own TLS settings) to the database.
      const proxy = config.neonWsProxy;
      neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
      neonConfig.useSecureWebSocket = false;
      neonConfig.pipelineTLS = false;
      neonConfig.pipelineConnect = false;
    }
    const pool = guardDriver(new NeonPool({ connectionString: config.databaseUrl, max: MAX_CONNECTIONS_PER_REQUEST }));
    pool.on("error", () => {}); // an idle client dropped at close must not crash the isolate
    return { db: drizzleNeon({ client: pool }) as unknown as Db, driver: "neon-serverless", close: () => pool.end() };
  }
  if (!config.hyperdrive) throw new Error("no database configured: set the HYPERDRIVE binding or DATABASE_URL");
  const pool = guardDriver(
    new PgPool({
      connectionString: config.hyperdrive.connectionString,
      max: MAX_CONNECTIONS_PER_REQUEST,
      // Fail fast when the database is down, so the API answers 503 instead of hanging.
      connectionTimeoutMillis: 5_000,
      // The pool ends with the request, so an idle client needs no timer of its own.
      idleTimeoutMillis: 0,
      stream: workersSocket,
    }),
  );
  // An idle client that errors (database restart) must not crash the isolate.
  pool.on("error", () => {});
  return { db: drizzlePg({ client: pool }) as unknown as Db, driver: "hyperdrive-pg", close: () => pool.end() };
}

/**
 * The Workers TCP socket for pg, given explicitly: pg's own require("pg-cloudflare") finds it
 * only under the "workerd" export condition, which not every bundler applies to require()
 * (brianc/node-postgres#3493). TLS, when asked for, is upgraded by pg via startTls().
 * Closing the socket rejects its pending read, which pg-cloudflare emits as `error`; pg
 * forwards that to a client that is already ending (it only ignores ECONNRESET/EPIPE then),
 * which surfaces as an unhandled rejection. Errors after our own `end()` are dropped here.
 */
export function workersSocket(): Duplex {
  const socket = new CloudflareSocket(false);
  let ended = false;
  const end = socket.end.bind(socket);
  const emit = socket.emit.bind(socket);
  socket.end = ((...args: Parameters<typeof end>) => {
    ended = true;
    return end(...args);
  }) as typeof socket.end;
  socket.emit = ((event: string | symbol, ...args: unknown[]) => (event === "error" && ended ? false : emit(event, ...args))) as typeof socket.emit;
  largeReads(socket as unknown as CloudflareSocketReads);
  const writable = socket as unknown as { write: SocketWrite };
  writable.write = coalescedWrites(writable.write.bind(socket));
  // pg only uses the socket-like subset of Duplex that CloudflareSocket implements.
  return socket as unknown as Duplex;
}
