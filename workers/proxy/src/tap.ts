/**
 * Passes a body stream through to the client chunk by chunk while an observer sees each
 * chunk, without buffering: a chunk is enqueued for the client as soon as it is read from the
 * upstream, and the next read happens only when the client side asks for more (backpressure
 * reaches the upstream). The observer can never break the client's stream: its errors are
 * caught and reported once, then it is detached.
 */

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
  const reader = source.getReader();
  let observing = true;
  let ended = false;

  const observe = (bytes: Uint8Array) => {
    if (!observing) return;
    try {
      observer.chunk(bytes);
    } catch (err) {
      observing = false;
      console.error(JSON.stringify({ msg: "capture failed; response keeps streaming, not logged in full", error: String(err) }));
    }
  };
  const end = (outcome: TapOutcome, error?: unknown) => {
    if (ended) return;
    ended = true;
    try {
      observer.end(outcome, error);
    } catch (err) {
      console.error(JSON.stringify({ msg: "capture end failed", error: String(err) }));
    }
  };

  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader.read();
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
  })().catch((err: unknown) => console.error(JSON.stringify({ msg: "capture failed", error: String(err) })));
}
