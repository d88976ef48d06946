/**
 * `trace(options, fn)` and the `@traced(options)` method decorator: log any function
 * (custom clients, internal models, fine-tuned endpoints).
 *
 * Each call queues one record: `request_body = {args: [...]}`, `response_body = {output}`
 * (null when the function threw), latency, `metadata.trace` = the label. Token counts are
 * estimated from the text in input and output (`metadata.token_count_source = "estimated"`).
 */
import { currentDeliveryLoop, record } from "./client.js";
import type { Extracted } from "./entry.js";
import { applyReporting, now } from "./runtime.js";
import { snapshot, toJsonable } from "./serialize.js";
import { cleanSessionId } from "./session.js";

/** Options of `trace` and `traced`. */
export interface TraceOptions {
  /** Model name written to the record (required by the API). */
  model: string;
  /** Provider name. Default `"custom"`. */
  provider?: string;
  /** Label in `metadata.trace`. Default: the function's name (`Class.method` for `@traced`). */
  name?: string;
  /** Conversation the calls belong to (`metadata.session_id`). */
  sessionId?: string;
}

const extractOutput = (raw: unknown): Extracted => ({ body: { output: toJsonable((raw as { output: unknown }).output) } });

interface Pending {
  model: string;
  provider: string;
  label: string;
  sessionId: string | undefined;
  request: unknown;
  startedAt: number;
  t0: number;
}

function submit(p: Pending, output: unknown, failed: boolean, error: unknown): void {
  try {
    record({
      model: p.model,
      provider: p.provider,
      request: p.request,
      response: failed ? undefined : { output: snapshot(output) },
      startedAt: p.startedAt,
      latencyMs: now() - p.t0,
      metadata: p.sessionId === undefined ? { trace: p.label } : { trace: p.label, session_id: p.sessionId },
      error,
      failed,
      extract: extractOutput,
    });
  } catch {
    /* never reaches the application */
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === "object" || typeof value === "function") && typeof (value as { then?: unknown }).then === "function";
}

/**
 * Wraps `fn` (sync or async) so each call is logged. The wrapper has the same type and
 * behaves exactly like `fn`: same `this`, arguments, return value (the same promise for an
 * async function) and thrown error object (logged with `metadata.status = "error"`).
 * Arguments are snapshotted before the call, so mutation inside `fn` is not reflected.
 */
export function trace<F extends (...args: never[]) => unknown>(options: TraceOptions, fn: F, labelOf?: (self: unknown) => string): F {
  const model = options?.model || "unknown";
  const provider = options?.provider || "custom";
  const fixedLabel = options?.name || fn.name || "function";
  const sessionId = cleanSessionId(options?.sessionId);
  const traced = function (this: unknown, ...args: unknown[]): unknown {
    let pending: Pending | undefined;
    try {
      if (currentDeliveryLoop() !== undefined) {
        let label = fixedLabel;
        if (!options?.name && labelOf) label = labelOf(this);
        pending = { model, provider, label, sessionId, request: { args: snapshot(args) }, startedAt: Date.now(), t0: now() };
      }
    } catch {
      pending = undefined;
    }
    if (pending === undefined) return (fn as unknown as (...a: unknown[]) => unknown).apply(this, args);
    const p = pending;
    const result = applyReporting(fn, this, args, (error) => submit(p, undefined, true, error));
    if (isThenable(result)) {
      try {
        result.then(
          (value) => submit(p, value, false, undefined),
          (error: unknown) => submit(p, undefined, true, error),
        );
      } catch {
        /* the promise goes back unchanged */
      }
    } else submit(p, result, false, undefined);
    return result;
  };
  try {
    Object.defineProperty(traced, "name", { value: fn.name, configurable: true });
    Object.defineProperty(traced, "length", { value: fn.length, configurable: true });
  } catch {
    /* cosmetic only */
  }
  return traced as unknown as F;
}

/**
 * TC39 (TypeScript 5, `experimentalDecorators: false`) method decorator:
 *
 * ```ts
 * class Model {
 *   @traced({ model: "my-finetune-v3" })
 *   async generate(prompt: string) { ... }
 * }
 * ```
 *
 * Same behaviour as `trace`; the default label is `ClassName.method`.
 */
export function traced(options: TraceOptions) {
  return <This, Args extends unknown[], Return>(
    method: (this: This, ...args: Args) => Return,
    context: ClassMethodDecoratorContext<This, (this: This, ...args: Args) => Return>,
  ): ((this: This, ...args: Args) => Return) => {
    const methodName = String(context.name);
    const labelOf = (self: unknown) => {
      const owner = context.static
        ? (self as { name?: string } | undefined)?.name
        : (self as { constructor?: { name?: string } } | undefined)?.constructor?.name;
      return owner ? `${owner}.${methodName}` : methodName;
    };
    return trace(options, method as unknown as (...a: never[]) => unknown, labelOf) as unknown as (this: This, ...args: Args) => Return;
  };
}
