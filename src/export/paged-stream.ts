/**
 * A streamed download read in keyset pages on demand (pull): the stream opens its own database
 * handle (the request's is released when the handler returns, before a streamed body is read),
 * asks for the next page only when the client has taken the last one, and closes the handle when
 * it ends or the client goes away. Memory stays bounded by one page.
 */
import { createDb, type Db, type DbConfig } from "../db/driver/client";

/** How `pagedDownload` reads and writes: pages of rows with an `id` (the keyset cursor). */
export interface PagedSource<R extends { id: string }> {
  /** Rows after `cursor` (the last row id of the previous page; undefined first), at most `pageSize`. */
  readPage(db: Db, cursor: string | undefined, pageSize: number): Promise<R[]>;
  /** The text of one page (may write to the database, e.g. an audit, before it is sent). */
  write(db: Db, rows: R[]): Promise<string>;
  pageSize: number;
}

/**
 * A `Response` streaming every page of `source` as `contentType`, downloaded as `filename`. A
 * failure after the headers are sent breaks the body (the client sees a truncated transfer).
 */
export function pagedDownload<R extends { id: string }>(dbConfig: DbConfig, source: PagedSource<R>, contentType: string, filename: string): Response {
  const handle = createDb(dbConfig);
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let done = false;
  const close = () => handle.close().catch(() => {});
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const rows = await source.readPage(handle.db, cursor, source.pageSize);
        cursor = rows.at(-1)?.id;
        const text = rows.length ? await source.write(handle.db, rows) : "";
        if (text) controller.enqueue(encoder.encode(text));
        if (rows.length < source.pageSize) {
          done = true;
          controller.close();
          await close();
        }
      } catch (err) {
        done = true;
        controller.error(err);
        await close();
      }
    },
    async cancel() {
      done = true;
      await close();
    },
  });
  return new Response(body, {
    headers: { "Content-Type": contentType, "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" },
  });
}
