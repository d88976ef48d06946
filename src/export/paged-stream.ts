/**
 * A streamed download read in keyset pages on demand (pull): the stream opens its own database
 * handle (the request's is released when the handler returns, before a streamed body is read),
 * reads the next page while the client takes this one (the database and the worker's CPU
 * overlap instead of taking turns), and closes the handle when it ends or the client goes away.
 * Memory stays bounded by two pages: one being written, the next being read.
 */
import { createDb, type Db, type DbConfig } from "../db/driver/client";

/** How `pagedDownload` reads and writes: pages of rows in keyset order. */
export interface PagedSource<R> {
  /** Rows after `last` (the last row of the previous page; undefined first), at most `pageSize`. */
  readPage(db: Db, last: R | undefined, pageSize: number): Promise<R[]>;
  /** The text of one page (may write to the database, e.g. an audit, before it is sent). */
  write(db: Db, rows: R[]): Promise<string>;
  pageSize: number;
  /** Text sent before the first page (e.g. a CSV header line); none when absent. */
  head?: string;
}

/**
 * A `Response` streaming every page of `source` as `contentType`, downloaded as
 * `<name>-<UTC time, YYYY-MM-DDTHHMMSS>.<extension>`. A failure after the headers are sent
 * breaks the body (the client sees a truncated transfer).
 */
export function pagedDownload<R>(dbConfig: DbConfig, source: PagedSource<R>, contentType: string, name: string, extension: string): Response {
  const handle = createDb(dbConfig);
  const encoder = new TextEncoder();
  const read = (last: R | undefined) => {
    const page = source.readPage(handle.db, last, source.pageSize);
    page.catch(() => {}); // handled where awaited; no unhandled rejection while it waits
    return page;
  };
  let next: Promise<R[]> | null = read(undefined);
  const close = () => handle.close().catch(() => {});
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (source.head) controller.enqueue(encoder.encode(source.head));
    },
    async pull(controller) {
      if (!next) return;
      try {
        const rows = await next;
        const full = rows.length === source.pageSize;
        next = full ? read(rows.at(-1)) : null;
        const text = rows.length ? await source.write(handle.db, rows) : "";
        if (text) controller.enqueue(encoder.encode(text));
        if (!full) {
          controller.close();
          await close();
        }
      } catch (err) {
        next = null;
        controller.error(err);
        await close();
      }
    },
    async cancel() {
      next = null;
      await close();
    },
  });
  const stamp = new Date().toISOString().slice(0, 19).replaceAll(":", "");
  return new Response(body, {
    headers: { "Content-Type": contentType, "Content-Disposition": `attachment; filename="${name}-${stamp}.${extension}"`, "Cache-Control": "no-store" },
  });
}
