import { createDb, type Db, type DbConfig } from "./client";

/**
 * Runs `work` with a database handle from `config` and closes the handle afterwards, whether
 * `work` resolved or threw: in `ctx.waitUntil` when a context is given (after the response or
 * batch), otherwise awaited. Returns what `work` returns.
 */
export async function withDb<T>(config: DbConfig, work: (db: Db) => Promise<T>, ctx?: { waitUntil(promise: Promise<unknown>): void }): Promise<T> {
  const handle = createDb(config);
  try {
    return await work(handle.db);
  } finally {
    const closing = handle.close().catch(() => {});
    if (ctx) ctx.waitUntil(closing);
    else await closing;
  }
}
