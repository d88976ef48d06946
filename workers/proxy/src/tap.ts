/**
 * Passes a body stream through to the client chunk by chunk while an observer sees each
 * chunk: a chunk is enqueued for the client as soon as it is read from the upstream, and at
 * most one chunk is read ahead of the client (highWaterMark 1: the next read overlaps the
 * runtime's write of the last one; backpressure reaches the upstream). The observer can never break the client's stream: its errors are
 * caught and reported once, then it is detached. A client going away cancels the stream
 * (`cancel` below), which closes the upstream call at once, even while the upstream is silent.
 *
 * Every chunk costs workerd a JavaScript turn on the way to the client, ~0.15 ms of CPU
 * whatever its size, so the number of chunks is what makes large streams slow: a 60 MB stream
 * arrives in ~7,300 network chunks of ~8 KiB (1.1-1.4 s of CPU, 0.2-0.4 of direct throughput;
 * bench/results/proxy.md). Reads are therefore BYOB reads in two modes (`bytesReader`):
 * - interactive (every stream starts so): each read takes whatever the upstream has delivered,
 *   never waiting for more, so a small SSE event passes at once;
 * - bulk: once the stream has sustained `BULK_MIN_RATE` over a window of `RATE_WINDOW_BYTES`
 *   (1 MiB at >= 10 MB/s: no LLM produces that; a file or a replayed stream does), each read
 *   waits for at least the bytes of `BULK_WAIT_MS` at that rate (16 KiB-1 MiB; workerd's
 *   `readAtLeast`), so a 60 MB stream takes ~100 turns. A bulk read that takes longer than
 *   `BULK_SLOW_MS` (the stream slowed down) returns the reader to interactive mode: after a
 *   slowdown, one read can wait for up to its minimum, at the new rate.
 */
import { logError } from "../../../src/logger";

/** First BYOB read buffer: 16 KiB. Doubles after a read that fills it. */
const MIN_READ_BYTES = 16 * 1024;

/** Largest BYOB read buffer: 1 MiB. */
const MAX_READ_BYTES = 1024 * 1024;

/** Bytes over which the arrival rate is measured: 1 MiB. */
export const RATE_WINDOW_BYTES = 1024 * 1024;

/** Arrival rate that switches to bulk reads: 10 MB/s, in bytes per millisecond. */
export const BULK_MIN_RATE = 10_000;

/** A bulk read waits for the bytes of this many milliseconds at the measured rate: 10 ms. */
const BULK_WAIT_MS = 10;

/** Smallest and largest bulk read minimum: 16 KiB and 1 MiB (4 ms and 256 KiB gave 0.64 of direct, this 0.78-1.0). */
const BULK_MIN_BYTES = 16 * 1024;
const BULK_MAX_BYTES = 1024 * 1024;

/**
 * A bulk read slower than this means the stream slowed down: back to interactive reads. 50 ms:
 * a loaded machine stalls a read for tens of ms now and then, which is not a slowdown.
 */
const BULK_SLOW_MS = 50;

/** How a tapped stream ended. `aborted`: the client went away (a normal ending, not an error). */
export type TapOutcome = "complete" | "aborted" | "error";

/** Sees the copy of each chunk and the end. */
export interface TapObserver {
  chunk(bytes: Uint8Array): void;
  /** Called exactly once. */
  end(outcome: TapOutcome, error?: unknown): void;
}

/** When reads switch to bulk (tests lower them to exercise bulk reads on a slow loopback). */
export interface BulkOptions {
  /** Default `BULK_MIN_RATE`, bytes per millisecond. */
  minRate?: number;
  /** Default `RATE_WINDOW_BYTES`. */
  windowBytes?: number;
}

/** Wraps `source`; the result is what the client reads. */
export function tapStream(source: ReadableStream<Uint8Array>, observer: TapObserver, bulk: BulkOptions = {}): ReadableStream<Uint8Array> {
  const reader = bytesReader(source, bulk);
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
    { highWaterMark: 1 },
  );
}

/** A reader of `source`: BYOB reads (see the module comment) when it is a byte stream, else the default reader. */
function bytesReader(
  source: ReadableStream<Uint8Array>,
  bulk: BulkOptions,
): {
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
  const minRate = bulk.minRate ?? BULK_MIN_RATE;
  const windowSize = bulk.windowBytes ?? RATE_WINDOW_BYTES;
  let size = MIN_READ_BYTES;
  /** Minimum bytes per read: 0 in interactive mode. */
  let atLeast = 0;
  let windowStart = Date.now();
  let windowBytes = 0;
  return {
    async read() {
      const started = Date.now();

      const view = new Uint8Array(Math.max(size, atLeast));
      const result = (await (atLeast > 0 ? byob.readAtLeast(atLeast, view) : byob.read(view))) as ReadableStreamReadResult<Uint8Array>;
      const now = Date.now();
      const chunk = result.value;
      if (result.done && (!chunk || chunk.byteLength === 0)) return { done: true, value: undefined };
      if (!chunk) return result;
      if (atLeast > 0 && now - started > BULK_SLOW_MS) {
        atLeast = 0; // slowed down: interactive again, and measure afresh
        windowStart = now;
        windowBytes = 0;
      } else {
        windowBytes += chunk.byteLength;
        if (windowBytes >= windowSize) {
          const rate = windowBytes / Math.max(1, now - windowStart); // bytes per ms
          atLeast = rate >= minRate ? Math.min(BULK_MAX_BYTES, Math.max(BULK_MIN_BYTES, Math.round(rate * BULK_WAIT_MS))) : 0;
          windowStart = now;
          windowBytes = 0;
        }
      }
      // A BYOB read that meets the end before its minimum carries the last bytes with `done`;
      // they are handed on as a chunk, and the next read reports the end.
      const value = chunk.byteLength < chunk.buffer.byteLength / 2 ? chunk.slice() : chunk;
      if (chunk.byteLength === view.byteLength) size = Math.min(MAX_READ_BYTES, size * 2);
      else if (chunk.byteLength < size / 4) size = Math.max(MIN_READ_BYTES, size / 2);
      // A small chunk is copied out so that it does not pin a large buffer while it is kept
      // (the JSON collector keeps chunks until the end).
      return { done: false, value };
    },
    cancel: (reason) => byob.cancel(reason),
    releaseLock: () => byob.releaseLock(),
  };
}
