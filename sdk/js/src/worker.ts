/**
 * Background delivery: a timer-driven loop drains the queue in batches, encodes each
 * record (never on the application's call path) and posts it with bounded concurrency,
 * retrying with exponential backoff and full jitter.
 *
 * Every timer is `unref`'d, so a pending delivery never keeps a process alive; `flush()`
 * and the exit hook hold the process open explicitly while they wait.
 */
import type { Config } from "./config.js";
import { MAX_BODY_BYTES } from "./config.js";
import { encodeEntry, type LogEntry } from "./entry.js";
import { BoundedQueue } from "./queue.js";
import { unrefTimer } from "./runtime.js";
import { backoffDelay, createPost, type PostFn } from "./transport.js";

/** Delivery counters since the current configuration (see `stats()`). */
export interface DeliveryStats {
  /** Records waiting in the queue. */
  queued: number;
  /** Records being delivered right now. */
  inFlight: number;
  /** Records accepted into the queue. */
  enqueued: number;
  /** Records the API accepted (2xx). */
  sent: number;
  /** Records evicted because the queue was full (oldest first). */
  dropped: number;
  /** Records refused with a non-retryable 4xx (400, 401, 413, 422...). */
  rejected: number;
  /** Records given up after `maxRetries` retries. */
  failed: number;
  /** Retry rounds (one round may resend several records). */
  retries: number;
  /** Records discarded by `shutdown()` before they could be delivered. */
  unsent: number;
  /** Records that could not be serialised. */
  invalid: number;
}

/** Owns the queue, the delivery loop and the counters of one configuration. */
export class Worker {
  readonly queue: BoundedQueue<LogEntry>;
  private readonly post: PostFn;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerImmediate = false;
  private running: Promise<void> | undefined;
  private closed = false;
  private aborted = false;
  /** Callers waiting in `flush()`: drain without waiting for the interval, keep timers referenced. */
  private flushers = 0;
  private readonly sleepers = new Set<() => void>();
  private sent = 0;
  private rejected = 0;
  private failed = 0;
  private retries = 0;
  private unsent = 0;
  private invalid = 0;

  /**
   * @param config an active configuration (`apiKey` set).
   * @param post replaces the HTTP POST (tests, benchmarks).
   */
  constructor(
    readonly config: Config,
    post?: PostFn,
  ) {
    this.queue = new BoundedQueue(config.maxQueueSize);
    this.post = post ?? createPost(config.logUrl, config.apiKey ?? "", config.timeoutMs);
  }

  /** Queues one record (O(1); evicts the oldest when full) and makes sure a cycle is due. Never throws. */
  submit(entry: LogEntry): void {
    if (this.closed) return;
    this.queue.put(entry);
    if (this.running === undefined) this.schedule(this.queue.length >= this.config.batchSize);
  }

  /** Moves records queued elsewhere (a previous configuration) into this queue. */
  adopt(entries: LogEntry[]): void {
    for (const entry of entries) this.submit(entry);
  }

  /**
   * Resolves once every queued record is handled (sent, rejected or given up) — `true` —
   * or after `timeoutMs` — `false` (delivery then goes on in the background). Never rejects.
   */
  async flush(timeoutMs?: number): Promise<boolean> {
    this.flushers++;
    // A referenced handle keeps the process alive while the caller waits (timers below are unref'd).
    const keepAlive = setInterval(() => {}, 1 << 30);
    let deadline: ReturnType<typeof setTimeout> | undefined;
    try {
      const drained = this.drainAll();
      if (timeoutMs === undefined) await drained;
      else {
        const expired = new Promise<void>((resolve) => (deadline = setTimeout(resolve, Math.max(0, timeoutMs))));
        await Promise.race([drained, expired]);
      }
      return this.queue.pending() === 0;
    } catch (error) {
      this.report(error);
      return false;
    } finally {
      clearInterval(keepAlive);
      if (deadline !== undefined) clearTimeout(deadline);
      this.flushers--;
    }
  }

  /**
   * Flushes (up to `timeoutMs`), then stops: later records are ignored, pending retries end,
   * records still queued are discarded and counted as `unsent`. Resolves `true` when
   * everything was handled in time.
   */
  async shutdown(timeoutMs?: number): Promise<boolean> {
    this.closed = true;
    const ok = await this.flush(timeoutMs);
    this.aborted = true;
    for (const wake of this.sleepers) wake();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.unsent += this.queue.clear().length;
    return ok;
  }

  /** Removes and returns the queued records (used when the configuration changes). */
  takeQueued(): LogEntry[] {
    this.closed = true;
    this.aborted = true;
    for (const wake of this.sleepers) wake();
    if (this.timer !== undefined) clearTimeout(this.timer);
    return this.queue.clear();
  }

  /** Current counters. */
  stats(): DeliveryStats {
    const q = this.queue;
    return {
      queued: q.length,
      inFlight: q.inFlight,
      enqueued: q.enqueued,
      sent: this.sent,
      dropped: q.dropped,
      rejected: this.rejected,
      failed: this.failed,
      retries: this.retries,
      unsent: this.unsent,
      invalid: this.invalid,
    };
  }

  /** Hands an internal error to `onError` (guarded). Never throws. */
  report(error: unknown): void {
    const handler = this.config.onError;
    if (!handler) return;
    try {
      handler(error);
    } catch {
      /* the handler itself failed: nothing else to tell */
    }
  }

  private schedule(immediate: boolean): void {
    if (this.aborted) return;
    if (this.timer !== undefined && (this.timerImmediate || !immediate)) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timerImmediate = immediate;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.start();
    }, immediate ? 0 : this.config.flushIntervalMs);
    unrefTimer(this.timer);
  }

  private start(): Promise<void> {
    if (this.running) return this.running;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const run = this.loop()
      .catch((error) => this.report(error))
      .finally(() => {
        this.running = undefined;
        if (this.queue.length > 0) this.schedule(this.queue.length >= this.config.batchSize || this.flushers > 0);
      });
    this.running = run;
    return run;
  }

  private async drainAll(): Promise<void> {
    while (this.queue.pending() > 0 && !this.aborted) await (this.running ?? this.start());
  }

  private async loop(): Promise<void> {
    const { batchSize } = this.config;
    while (!this.aborted && this.queue.length > 0) {
      const batch = this.queue.take(batchSize);
      try {
        await this.deliver(batch);
      } finally {
        this.queue.done(batch.length);
      }
      // Below a full batch, wait for the next interval unless someone is flushing.
      if (this.queue.length < batchSize && this.flushers === 0) break;
    }
  }

  private async deliver(batch: LogEntry[]): Promise<void> {
    const bodies: string[] = [];
    for (const entry of batch) {
      try {
        bodies.push(encodeEntry(entry, MAX_BODY_BYTES));
      } catch (error) {
        this.invalid++;
        this.report(error);
      }
    }
    if (bodies.length) await this.sendWithRetry(bodies);
  }

  /**
   * Delivers `bodies` in rounds. A service-wide failure (network error, 429, 502-504) ends
   * a round at once (the other records would fail the same way); between rounds the loop
   * waits `Retry-After` (capped) or a full-jitter backoff. After `maxRetries` retries the
   * records still pending are given up (`failed`); non-retryable 4xx are `rejected` at once.
   */
  private async sendWithRetry(bodies: string[]): Promise<void> {
    const cfg = this.config;
    let pending = bodies;
    for (let retryIndex = 0; pending.length > 0; retryIndex++) {
      const next: string[] = [];
      let retryAfterMs: number | undefined;
      let lastError: unknown;
      let stop = false;
      let cursor = 0;
      const round = pending;
      const lane = async () => {
        while (!stop && cursor < round.length) {
          const body = round[cursor++] as string;
          const outcome = await this.post(body);
          if (outcome.kind === "ok") this.sent++;
          else if (outcome.kind === "rejected") {
            this.rejected++;
            this.report(outcome.error);
          } else {
            lastError = outcome.error;
            if (outcome.retryAfterMs !== undefined) retryAfterMs = Math.max(retryAfterMs ?? 0, outcome.retryAfterMs);
            next.push(body);
            if (outcome.serviceWide) stop = true;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(cfg.concurrency, round.length) }, lane));
      if (stop) next.push(...round.slice(cursor));
      pending = next;
      if (pending.length === 0) return;
      if (retryIndex >= cfg.maxRetries || this.aborted) {
        if (this.aborted) this.unsent += pending.length;
        else {
          this.failed += pending.length;
          this.report(lastError);
        }
        return;
      }
      this.retries++;
      const delay = retryAfterMs !== undefined ? Math.min(retryAfterMs, cfg.retryAfterMaxMs) : backoffDelay(retryIndex, cfg.backoffBaseMs, cfg.backoffMaxMs);
      if (await this.sleep(delay)) {
        this.unsent += pending.length;
        return;
      }
    }
  }

  /** Waits `ms` (unref'd); resolves `true` when delivery must stop now (shutdown). */
  private sleep(ms: number): Promise<boolean> {
    if (this.aborted) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.sleepers.delete(wake);
        resolve(this.aborted);
      };
      const timer = setTimeout(wake, ms);
      unrefTimer(timer);
      this.sleepers.add(wake);
    });
  }
}
