import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../env";
import { createDb } from "../db/driver/client";

/**
 * Per-request database handle on `c.var.db`. Connections open lazily on the first query and
 * are released in `waitUntil` after the response, so routes that never query pay nothing.
 */
export function database(): MiddlewareHandler<AppBindings> {
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
