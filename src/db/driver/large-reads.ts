/**
 * Large reads for the pg socket in Workers (see `workersSocket` in ./client.ts).
 */
import { Buffer } from "node:buffer";

/** Bytes asked of the socket per read: 64 KiB. */
const READ_BYTES = 64 * 1024;

/** The parts of pg-cloudflare's `CloudflareSocket` (1.4) that its read loop uses. */
export interface CloudflareSocketReads {
  _cfSocket: { readable: ReadableStream<Uint8Array> } | null;
  _cfReader: { releaseLock(): void } | null;
  _listen(): Promise<void>;
  emit(event: "data", data: Buffer): boolean;
}

/**
 * Replaces the socket's read loop: reads of up to READ_BYTES into a buffer of its own (a BYOB
 * reader) instead of the default reader's chunks, handed to pg without a copy. The default
 * reader yields 4 KiB a read in workerd; for the export's 120 MB (100,000 rows) that was 30,000
 * reads, each a promise round, a `Buffer.from` copy, an `emit` and a parser call, about 25% of
 * the worker's CPU in a profile. `connect()` and `startTls()` call `_listen()` right after they
 * made a default reader of the (new) stream; the loop trades it for a BYOB reader of the same
 * stream, kept in `_cfReader` so that `startTls()` releases it as before. Errors reject the
 * loop's promise, which pg-cloudflare turns into an `error` event as for its own loop.
 */
export function largeReads(socket: CloudflareSocketReads): void {
  socket._listen = async function listen(this: CloudflareSocketReads) {
    const stream = this._cfSocket!.readable;
    this._cfReader!.releaseLock();
    const reader = stream.getReader({ mode: "byob" });
    this._cfReader = reader;
    for (;;) {
      const { done, value } = await reader.read(new Uint8Array(READ_BYTES));
      if (done || !value) break;
      // A BYOB read transfers the buffer to the result: it is this loop's alone, no copy needed.
      this.emit("data", Buffer.from(value.buffer, value.byteOffset, value.byteLength));
    }
  };
}
