/**
 * Write coalescing for the pg socket in Workers (see `workersSocket` in ./client.ts).
 */
import { Buffer } from "node:buffer";

/** A Node-style socket `write(data, [encoding], [callback])`. */
export type SocketWrite = (data: Uint8Array | string, encodingOrCallback?: BufferEncoding | WriteCallback, callback?: WriteCallback) => boolean;
/** Called once the data has been written, with the write's error if it failed. */
export type WriteCallback = (err?: Error) => void;

/**
 * Wraps a socket's `write` so that the writes issued in one synchronous run (pg sends an
 * extended-protocol query as five messages: Parse, Bind, Describe, Execute, Sync) reach the
 * socket as one chunk at the next microtask: one `WritableStream` write and one TCP segment
 * instead of five. Order is kept (`end()` writes through `write` too); each callback runs
 * when the chunk that carried its data has been written, with that write's error if any.
 */
export function coalescedWrites(write: SocketWrite): SocketWrite {
  let chunks: Uint8Array[] = [];
  let callbacks: WriteCallback[] = [];
  const flush = () => {
    const data = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const done = callbacks;
    chunks = [];
    callbacks = [];
    write(data, (err?: Error) => {
      for (const cb of done) cb(err);
    });
  };
  return (data, encodingOrCallback, callback) => {
    const cb = typeof encodingOrCallback === "function" ? encodingOrCallback : callback;
    const encoding = typeof encodingOrCallback === "string" ? encodingOrCallback : "utf8";
    if (chunks.length === 0) queueMicrotask(flush);
    chunks.push(typeof data === "string" ? Buffer.from(data, encoding) : data);
    if (cb) callbacks.push(cb);
    return true;
  };
}
