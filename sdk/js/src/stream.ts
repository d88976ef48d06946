/**
 * Pass-through instrumentation of provider streams. The stream object the application
 * gets is the provider SDK's own (same class, same `controller`, `tee()`...): only its
 * iterator is wrapped, in place, so each event is handed on unchanged and at once while a
 * reference to it is kept. When the stream ends, fails or is closed early, `finish` runs
 * once with the collected events.
 */
import { now } from "./runtime.js";

/** `finish(events, error, completed, latencyMs, ttftMs)`; guarded by the recorder. */
export type FinishFn = (events: unknown[], error: unknown, completed: boolean, latencyMs: number, ttftMs: number | undefined) => void;

/** Tells which event carries the first generated content (for `metadata.ttft_ms`). */
export type TokenPredicate = (event: unknown) => boolean;

/** Collects the events of one stream and reports them once. */
export class StreamRecorder {
  readonly events: unknown[] = [];
  private ttftMs: number | undefined;
  private done = false;

  constructor(
    private readonly t0: number,
    private readonly onFinish: FinishFn,
    private readonly isTokenEvent?: TokenPredicate,
    private readonly wasAborted?: () => boolean,
  ) {}

  /** Keeps a reference to `event` and notes the time to the first token. */
  add(event: unknown): void {
    this.events.push(event);
    if (this.ttftMs === undefined) {
      let first = true;
      try {
        first = this.isTokenEvent ? this.isTokenEvent(event) : true;
      } catch {
        /* treat as content */
      }
      if (first) this.ttftMs = now() - this.t0;
    }
  }

  /** Reports the stream once; `completed` is false when it was closed or aborted early. Never throws. */
  finish(error: unknown, completed: boolean): void {
    if (this.done) return;
    this.done = true;
    try {
      const aborted = this.wasAborted?.() ?? false;
      this.onFinish(this.events, error, completed && !aborted, now() - this.t0, this.ttftMs);
    } catch {
      /* never reaches the application */
    }
  }
}

function wrapIterator<T>(inner: AsyncIterator<T>, recorder: StreamRecorder): AsyncIterator<T> & AsyncIterable<T> {
  const wrapped: AsyncIterator<T> & AsyncIterable<T> = {
    async next(...args: [] | [undefined]) {
      let result: IteratorResult<T>;
      try {
        result = await inner.next(...args);
      } catch (error) {
        recorder.finish(error, false);
        throw error;
      }
      if (result.done) recorder.finish(undefined, true);
      else recorder.add(result.value);
      return result;
    },
    [Symbol.asyncIterator]() {
      return wrapped;
    },
  };
  if (typeof inner.return === "function") {
    wrapped.return = (value?: unknown) => {
      recorder.finish(undefined, false);
      return (inner.return as (v?: unknown) => Promise<IteratorResult<T>>).call(inner, value);
    };
  }
  if (typeof inner.throw === "function") {
    wrapped.throw = (error?: unknown) => {
      recorder.finish(error, false);
      return (inner.throw as (e?: unknown) => Promise<IteratorResult<T>>).call(inner, error);
    };
  }
  return wrapped;
}

/** True for objects that can be iterated with `for await`. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && typeof value === "object" && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === "function";
}

/**
 * Instruments `stream` in place and returns it. Stainless streams (`@anthropic-ai/sdk`,
 * `openai`) keep their iterator factory in an own `iterator` field that `for await`,
 * `tee()` and `toReadableStream()` all use: that factory is wrapped. Other async iterables
 * (cohere-ai's `Stream`) get an own `[Symbol.asyncIterator]`.
 */
export function instrumentStream<S extends object>(stream: S, recorder: StreamRecorder): S {
  const s = stream as Record<string | symbol, unknown>;
  const own = Object.hasOwn(s, "iterator") ? s.iterator : undefined;
  if (typeof own === "function" && typeof s.tee === "function") {
    s.iterator = function instrumentedIterator(this: unknown, ...args: unknown[]) {
      return wrapIterator(own.apply(this, args) as AsyncIterator<unknown>, recorder);
    };
    return stream;
  }
  const factory = s[Symbol.asyncIterator];
  if (typeof factory === "function") {
    Object.defineProperty(s, Symbol.asyncIterator, {
      configurable: true,
      writable: true,
      value: function instrumentedAsyncIterator(this: unknown) {
        return wrapIterator(factory.call(this) as AsyncIterator<unknown>, recorder);
      },
    });
  }
  return stream;
}
