/**
 * Shared mechanics of direct mode: wrap one provider method so each call is logged.
 *
 * The wrapper calls the original with the same `this` and arguments and returns its result
 * object itself (an `APIPromise`, `HttpResponsePromise`...), so helpers such as
 * `.withResponse()` keep working. It only registers its own `then` on that promise, first,
 * so it sees the value before the application does: a stream is instrumented in place,
 * anything else is queued as one record. Provider errors reach the application untouched.
 */
import { currentDeliveryLoop, record } from "./client.js";
import type { Extractor } from "./entry.js";
import { applyReporting, now } from "./runtime.js";
import { getField, snapshot } from "./serialize.js";
import { takeSessionHeader } from "./session.js";
import { instrumentStream, isAsyncIterable, StreamRecorder, type TokenPredicate } from "./stream.js";

/** Marks a function installed by this library (wrapping twice is a no-op). */
export const WRAPPED = Symbol.for("sightline.wrapped");

/** How to log one provider method. */
export interface CallSpec {
  /** Provider name written to the record. */
  provider: string;
  /** Converts a non-streamed response. */
  extract: Extractor;
  /** Converts the list of stream events. */
  streamExtract: Extractor;
  /** Marks the first content event (for `ttft_ms`). */
  isTokenEvent?: TokenPredicate;
  /** The method always returns a stream (cohere `chatStream`); otherwise `params.stream === true`. */
  alwaysStream?: boolean;
  /** Converts the request snapshot to its wire form. */
  requestToJson?: (request: unknown) => unknown;
  /** Calls for which nothing is logged (e.g. made by a helper that logs itself). */
  skip?: (args: unknown[]) => boolean;
  /** Session of every call of this client (`metadata.session_id`); a per-call header wins. */
  sessionId?: string | undefined;
}

/** Context of one call, built on the call path. */
interface Call {
  spec: CallSpec;
  model: unknown;
  request: unknown;
  startedAt: number;
  t0: number;
  streaming: boolean;
  /** `metadata.session_id` of the record, when the call belongs to a session. */
  sessionId: string | undefined;
}

function submit(
  call: Call,
  response: unknown,
  failed: boolean,
  error: unknown,
  latencyMs: number,
  metadata: Record<string, unknown>,
  extract: Extractor | undefined,
): void {
  try {
    record({
      model: call.model,
      provider: call.spec.provider,
      request: call.request,
      response,
      startedAt: call.startedAt,
      latencyMs,
      metadata: call.sessionId === undefined ? metadata : { ...metadata, session_id: call.sessionId },
      error,
      failed,
      ...(extract ? { extract } : {}),
      ...(call.spec.requestToJson ? { requestToJson: call.spec.requestToJson } : {}),
    });
  } catch {
    /* never let logging reach the application */
  }
}

/** Queues the record of a failed call (`metadata.status = "error"`). */
function submitFailure(call: Call, error: unknown): void {
  submit(call, undefined, true, error, now() - call.t0, { stream: call.streaming }, undefined);
}

function onValue(call: Call, value: unknown): void {
  const { spec } = call;
  if (call.streaming && isAsyncIterable(value)) {
    const controller = getField(value, "controller");
    const aborted = () => Boolean(getField(getField(controller, "signal"), "aborted"));
    const recorder = new StreamRecorder(
      call.t0,
      (events, error, completed, latencyMs, ttftMs) => {
        const metadata: Record<string, unknown> = { stream: true };
        if (ttftMs !== undefined) metadata.ttft_ms = Math.round(ttftMs);
        if (!completed && error === undefined) metadata.stream_completed = false;
        submit(call, events, error !== undefined, error, latencyMs, metadata, spec.streamExtract);
      },
      spec.isTokenEvent,
      aborted,
    );
    instrumentStream(value as object, recorder);
    return;
  }
  submit(call, value, false, undefined, now() - call.t0, { stream: false }, spec.extract);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

/** Starts the record of one call: a shallow structural snapshot of the request. */
export function beginCall(spec: CallSpec, params: unknown, streaming: boolean, sessionId: string | undefined = spec.sessionId): Call {
  let request: unknown;
  try {
    request = snapshot(params);
  } catch {
    request = {};
  }
  return { spec, model: getField(params, "model"), request, startedAt: Date.now(), t0: now(), streaming, sessionId };
}

/**
 * Returns a function with `original`'s signature that logs every call. `this`, arguments,
 * the returned object and thrown/rejected errors (same object) are passed through.
 */
export function wrapMethod<F extends (...args: never[]) => unknown>(original: F, spec: CallSpec): F {
  if ((original as unknown as Record<symbol, unknown>)[WRAPPED]) return original;
  const wrapped = function sightlineWrapped(this: unknown, ...given: unknown[]): unknown {
    // The per-call session header is Sightline's, not the provider's: always taken off.
    const { args, sessionId } = takeSessionHeader(given);
    let call: Call | undefined;
    try {
      if (currentDeliveryLoop() !== undefined && !spec.skip?.(args)) {
        const params = args[0];
        call = beginCall(spec, params, spec.alwaysStream === true || getField(params, "stream") === true, sessionId ?? spec.sessionId);
      }
    } catch {
      call = undefined;
    }
    if (call === undefined) return (original as unknown as (...a: unknown[]) => unknown).apply(this, args);
    const active = call;
    const result = applyReporting(original, this, args, (error) => submitFailure(active, error));
    try {
      if (isThenable(result)) {
        // Registered first, so it runs before the application's own continuation.
        result.then(
          (value) => {
            try {
              onValue(active, value);
            } catch {
              /* ignore */
            }
          },
          (error: unknown) => submitFailure(active, error),
        );
      } else onValue(active, result);
    } catch {
      /* the result goes back unchanged whatever happened here */
    }
    return result;
  };
  try {
    Object.defineProperty(wrapped, "name", { value: original.name, configurable: true });
    Object.defineProperty(wrapped, "length", { value: original.length, configurable: true });
    Object.defineProperty(wrapped, WRAPPED, { value: original });
  } catch {
    /* cosmetic only */
  }
  return wrapped as unknown as F;
}

/**
 * Replaces `target[name]` by a logging wrapper on the instance (an own property that
 * shadows the prototype method). Idempotent. Returns `true` when the method is wrapped.
 */
export function patchMethod(target: unknown, name: string, spec: CallSpec): boolean {
  try {
    if (target === null || typeof target !== "object") return false;
    const original = (target as Record<string, unknown>)[name];
    if (typeof original !== "function") return false;
    if ((original as unknown as Record<symbol, unknown>)[WRAPPED]) return true;
    (target as Record<string, unknown>)[name] = wrapMethod(original as (...args: never[]) => unknown, spec);
    return true;
  } catch {
    return false;
  }
}
