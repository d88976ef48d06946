import type { MiddlewareHandler } from "hono";
import { createDb, type Db, type DbConfig } from "../db/driver/client";

/** The context a `database()` middleware needs: the parsed config in, the handle out. */
interface DatabaseContext {
  Variables: { config: { db: DbConfig }; db: Db };
}

/**
 * Per-request database handle on `c.var.db`, for the API worker and the dashboard server.
 * Connections open lazily on the first query and are released in `waitUntil` after the
 * response, so routes that never query pay nothing.
 */
export function database<E extends DatabaseContext>(): MiddlewareHandler<E> {
  return async function database(c, next) {
    const handle = createDb(c.var.config.db);
    c.set("db", handle.db);
    try {
      await next();
    } finally {
      c.executionCtx.waitUntil(handle.close().catch(() => {}));
    }
  };
}
