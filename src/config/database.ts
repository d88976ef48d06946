/**
 * The database variables every worker with a database shares (API, scorer, dashboard server):
 * the Hyperdrive binding, or a Postgres URL for @neondatabase/serverless (and its local
 * WebSocket proxy), as the `DbConfig` that `createDb` takes (src/db/driver/client.ts).
 */
import type { z } from "zod";
import type { DbConfig } from "../db/driver/client";
import { binding, textVar } from "./vars";

/** Zod shape entries of the database variables. */
export const databaseVars = {
  /** Hyperdrive in front of PostgreSQL (wrangler.jsonc). */
  HYPERDRIVE: binding<Hyperdrive | undefined>(),
  /** Alternative to Hyperdrive: a Postgres URL used with @neondatabase/serverless. */
  DATABASE_URL: textVar,
  /** Local stand-in for Neon's WebSocket proxy, `host:port/path` (e.g. `127.0.0.1:5488/v1`). Unset in production. */
  NEON_WSPROXY: textVar,
};

/** The parsed database variables as `DbConfig`. */
export function toDbConfig(v: z.output<z.ZodObject<typeof databaseVars>>): DbConfig {
  return { hyperdrive: v.HYPERDRIVE, databaseUrl: v.DATABASE_URL, neonWsProxy: v.NEON_WSPROXY };
}
