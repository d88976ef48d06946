/**
 * Passes a body stream through to the client chunk by chunk while an observer sees each
 * chunk, without buffering: a chunk is enqueued for the client as soon as it is read from the
 * upstream, and the next read happens only when the client side asks for more (backpressure
 * reaches the upstream). The observer can never break the client's stream: its errors are
 * caught and reported once, then it is detached.
 *
 * Reads are BYOB reads into a buffer of up to `MAX_READ_BYTES`: each read takes whatever the
 * upstream has delivered (never waiting for more), so a small SSE event still passes at once,
 * while a fast large stream moves in few large chunks. Every chunk costs JavaScript work in the
 * runtime's stream pipe, so fewer chunks is what makes large streams fast: a 60 MB stream
 * read in the default reader's ~8 KB chunks cost workerd 3 s of CPU, 1.2 s in BYOB chunks
 * (bench/results/proxy.md, throughput).
 */
import { logError } from "../../../src/log";

/** First BYOB read buffer: 16 KiB. Doubles after a read that fills it. */
const MIN_READ_BYTES = 16 * 1024;

/** Largest BYOB read buffer: 1 MiB. */
const MAX_READ_BYTES = 1024 * 1024;

/** How a tapped stream ended. `aborted`: the client went away (a normal ending, not an error). */
export type TapOutcome = "complete" | "aborted" | "error";

/** Sees the copy of each chunk and the end. */
export interface TapObserver {
  chunk(bytes: Uint8Array): void;
  /** Called exactly once. */
  end(outcome: TapOutcome, error?: unknown): void;
}

/** Wraps `source`; the result is what the client reads. */
export function tapStream(source: ReadableStream<Uint8Array>, observer: TapObserver): ReadableStream<Uint8Array> {
  const reader = bytesReader(source);
  let observing = true;
  let ended = false;

  const observe = (bytes: Uint8Array) => {
    if (!observing) return;
    try {
      observer.chunk(bytes);
    } catch (err) {
      observing = false;
      logError("capture failed; response keeps streaming, not logged in full", {}, err);
    }
  };
  const end = (outcome: TapOutcome, error?: unknown) => {
    if (ended) return;
    ended = true;
    try {
      observer.end(outcome, error);
    } catch (err) {
      logError("capture end failed", {}, err);
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
          if (!result.done && result.value.byteLength === 0) result = await reader.read();
        } catch (err) {
          end("error", err);
          controller.error(err);
          reader.releaseLock();
          return;
        }
        if (result.done) {
          try {
            controller.close();
          } finally {
            reader.releaseLock();
            end("complete");
          }
          return;
        }
        controller.enqueue(result.value);
        observe(result.value);
      },
      async cancel(reason) {
        end("aborted", reason);
        try {
          await reader.cancel(reason);
        } catch {
          // the upstream connection may already be gone; nothing to close
        }
      },
    },
    { highWaterMark: 0 },
  );
}

/** A reader of `source`: BYOB reads with an adaptive buffer when it is a byte stream, else the default reader. */
function bytesReader(source: ReadableStream<Uint8Array>): {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
} {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = source.getReader({ mode: "byob" });
  } catch {
    return source.getReader(); // not a byte stream (a body built in JavaScript)
  }
  let size = MIN_READ_BYTES;
  return {
    async read() {
      const result = (await byob.read(new Uint8Array(size))) as ReadableStreamReadResult<Uint8Array>;
      if (result.done) return result;
      const chunk = result.value;
      if (chunk.byteLength === size) {
        size = Math.min(MAX_READ_BYTES, size * 2);
        return result;
      }
      if (chunk.byteLength < size / 4) size = Math.max(MIN_READ_BYTES, size / 2);
      // A small chunk is copied out so that it does not pin a large buffer while it is kept
      // (the JSON collector keeps chunks until the end).
      return chunk.byteLength < chunk.buffer.byteLength / 2 ? { done: false, value: chunk.slice() } : result;
    },
    cancel: (reason) => byob.cancel(reason),
    releaseLock: () => byob.releaseLock(),
  };
}

/**
 * Reads a copy of a body to its end for `observer` (the log branch of a native `tee()`).
 * Never throws: a read error ends the observation with `error`.
 */
export function drain(copy: ReadableStream<Uint8Array>, observer: TapObserver): void {
  void (async () => {
    const reader = copy.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        observer.chunk(value);
      }
      observer.end("complete");
    } catch (err) {
      observer.end("error", err);
    }
  })().catch((err: unknown) => logError("capture failed", {}, err));
}
