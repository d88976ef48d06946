/**
 * Background delivery: a timer-driven loop drains the queue in batches, encodes each
 * record (never on the application's call path) and posts it with bounded concurrency.
 * A record failing on its own (408, 500...) is retried `maxRetries` times with exponential
 * backoff and full jitter; records held by an outage (network error, 429, 502-504,
 * `Retry-After`) go back to the front of the bounded queue and are retried after
 * `Retry-After` or a backoff until delivered or evicted as the oldest. Mirrors
 * `sightline/delivery_loop.py`.
 *
 * Every timer is `unref`'d, so a pending delivery never keeps a process alive; `flush()`
 * and the exit hook hold the process open explicitly while they wait, for a bounded time
 * (`flushTimeoutMs`, `exitTimeoutMs`). Every record taken from the queue is counted once:
 * sent, rejected, failed, invalid, unsent, or handed back to the queue (see `BoundedQueue`).
 */
import type { Config } from "./config.js";
import { MAX_BODY_BYTES } from "./config.js";
import { encodeEntry, type LogEntry } from "./entry.js";
import { BoundedQueue } from "./queue.js";
import { unrefTimer } from "./runtime.js";
import { backoffDelay, createPost, outageDelay, type PostFn } from "./transport.js";

/** One encoded record of a batch; `index` keeps the batch order for records put back. */
interface Encoded {
  entry: LogEntry;
  body: string;
  index: number;
}

/** Records a service-wide failure kept from delivery (oldest first) and its `Retry-After`. */
interface Held {
  entries: LogEntry[];
  retryAfterMs?: number;
}

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
  /** Records failing on their own (408, 500...) given up after `maxRetries` retries. */
  failed: number;
  /** Backoff and `Retry-After` waits (one wait may precede resending several records). */
  retries: number;
  /** Records not delivered when `shutdown()` returned (queued or in flight at its bound). */
  unsent: number;
  /** Records that could not be serialised. */
  invalid: number;
}

/** Counters kept by the loop (the queue keeps `enqueued`, `dropped` and the live sizes). */
type Counter = "sent" | "rejected" | "failed" | "retries" | "unsent" | "invalid";

/** Longest delay `setTimeout` honours (2^31 - 1 ms, about 24.8 days); longer waits are unbounded. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Owns the queue, the delivery loop and the counters of one configuration. */
export class DeliveryLoop {
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
  /** Aborts the requests in flight when `shutdown()` gives up on them. */
  private readonly stop = new AbortController();
  private readonly counts: Record<Counter, number> = { sent: 0, rejected: 0, failed: 0, retries: 0, unsent: 0, invalid: 0 };
  /** Records of the current batch not yet counted (settled, held or given up). */
  private unaccounted = 0;
  /** Consecutive delivery rounds ended by a service-wide failure (backoff exponent). */
  private outageRounds = 0;

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
   * or after `timeoutMs` (default `config.flushTimeoutMs`, 5 s) — `false`; the records not
   * delivered then stay queued and delivery goes on in the background. `Infinity` waits
   * without a bound. Never rejects.
   */
  async flush(timeoutMs: number = this.config.flushTimeoutMs): Promise<boolean> {
    this.flushers++;
    // A referenced handle keeps the process alive while the caller waits (timers below are unref'd).
    const keepAlive = setInterval(() => {}, 1 << 30);
    const waiting = { active: true };
    let deadline: ReturnType<typeof setTimeout> | undefined;
    try {
      const drained = this.drainAll(waiting);
      if (timeoutMs > MAX_TIMER_MS) await drained;
      else {
        const expired = new Promise<void>((resolve) => (deadline = setTimeout(resolve, Math.max(0, timeoutMs))));
        await Promise.race([drained, expired]);
      }
      return this.queue.pending() === 0;
    } catch (error) {
      this.report(error);
      return false;
    } finally {
      waiting.active = false;
      clearInterval(keepAlive);
      if (deadline !== undefined) clearTimeout(deadline);
      this.flushers--;
    }
  }

  /**
   * Flushes (up to `timeoutMs`, default `config.flushTimeoutMs`), then stops: later records
   * are ignored, pending retries end, requests in flight are aborted, and every record not
   * delivered (queued or in flight) is counted once as `unsent`. Resolves `true` when
   * everything was handled in time, else `false`.
   */
  async shutdown(timeoutMs: number = this.config.flushTimeoutMs): Promise<boolean> {
    this.closed = true;
    const ok = await this.flush(timeoutMs);
    this.aborted = true;
    this.counts.unsent += this.queue.abandon();
    this.stop.abort();
    for (const wake of this.sleepers) wake();
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
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
    const c = this.counts;
    return {
      queued: q.length,
      inFlight: q.inFlight,
      enqueued: q.enqueued,
      sent: c.sent,
      dropped: q.dropped,
      rejected: c.rejected,
      failed: c.failed,
      retries: c.retries,
      unsent: c.unsent,
      invalid: c.invalid,
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
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        this.start();
      },
      immediate ? 0 : this.config.flushIntervalMs,
    );
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

  /** Runs delivery cycles back to back while `waiting.active` (the flush is not over) and records are pending. */
  private async drainAll(waiting: { active: boolean }): Promise<void> {
    while (waiting.active && this.queue.pending() > 0 && !this.aborted) await (this.running ?? this.start());
  }

  /** Counts `n` records of the current batch as `field`; nothing once `shutdown()` counted them as unsent. */
  private settle(field: Counter, n: number): void {
    if (n <= 0) return;
    this.unaccounted -= n;
    if (this.queue.settle(n)) this.counts[field] += n;
  }

  private async loop(): Promise<void> {
    const { batchSize } = this.config;
    while (!this.aborted && this.queue.length > 0) {
      const batch = this.queue.take(batchSize);
      this.unaccounted = batch.length;
      let held: Held = { entries: [] };
      try {
        held = await this.deliver(batch);
      } finally {
        this.unaccounted -= held.entries.length;
        this.counts.unsent += this.queue.requeue(held.entries);
        // Only a broken PostFn (it threw) leaves records of the batch uncounted.
        this.settle("failed", this.unaccounted);
      }
      if (held.entries.length > 0) {
        // Service-wide failure: the records are back in the buffer; wait, then retry them.
        const delay = outageDelay(held.retryAfterMs, this.outageRounds++, this.config);
        this.counts.retries++;
        if (await this.sleep(delay)) break;
        continue;
      }
      this.outageRounds = 0;
      // Below a full batch, wait for the next interval unless someone is flushing.
      if (this.queue.length < batchSize && this.flushers === 0) break;
    }
  }

  private async deliver(batch: LogEntry[]): Promise<Held> {
    const items: Encoded[] = [];
    for (const entry of batch) {
      try {
        items.push({ entry, body: encodeEntry(entry, MAX_BODY_BYTES), index: items.length });
      } catch (error) {
        this.settle("invalid", 1);
        this.report(error);
      }
    }
    return items.length ? this.sendWithRetry(items) : { entries: [] };
  }

  /**
   * Delivers `items` in rounds, `concurrency` at a time. A service-wide failure (network
   * error, 429, 502-504, any `Retry-After`) ends the call at once: the records not delivered
   * are returned as held (the caller puts them back in the buffer). A record failing on its
   * own (408, 500 and other 5xx) waits a full-jitter backoff and is retried, at most
   * `maxRetries` times, then given up (`failed`); other 4xx are `rejected` at once.
   */
  private async sendWithRetry(items: Encoded[]): Promise<Held> {
    const cfg = this.config;
    let pending = items;
    for (let retryIndex = 0; pending.length > 0; retryIndex++) {
      const next: Encoded[] = [];
      const held: Encoded[] = [];
      let outage: { retryAfterMs?: number } | undefined;
      let lastError: unknown;
      let cursor = 0;
      const round = pending;
      const lane = async () => {
        while (!outage && !this.stop.signal.aborted && cursor < round.length) {
          const item = round[cursor++] as Encoded;
          const outcome = await this.post(item.body, this.stop.signal);
          if (outcome.kind === "ok") this.settle("sent", 1);
          else if (outcome.kind === "rejected") {
            this.settle("rejected", 1);
            this.report(outcome.error);
          } else if (outcome.serviceWide) {
            outage ??= {};
            if (outcome.retryAfterMs !== undefined) outage.retryAfterMs = Math.max(outage.retryAfterMs ?? 0, outcome.retryAfterMs);
            held.push(item);
          } else {
            lastError = outcome.error;
            next.push(item);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(cfg.concurrency, round.length) }, lane));
      // Shut down after its bound: every record not delivered is already counted as unsent.
      if (this.stop.signal.aborted) return { entries: [] };
      if (outage) {
        // Records retried earlier in this batch lose their attempt count here: at worst a
        // failing record gets `maxRetries` more attempts after the outage.
        const entries = [...next, ...held, ...round.slice(cursor)].sort((a, b) => a.index - b.index).map((item) => item.entry);
        return { entries, retryAfterMs: outage.retryAfterMs };
      }
      pending = next;
      if (pending.length === 0) break;
      if (retryIndex >= cfg.maxRetries || this.aborted) {
        if (this.aborted) this.settle("unsent", pending.length);
        else {
          this.settle("failed", pending.length);
          this.report(lastError);
        }
        break;
      }
      this.counts.retries++;
      if (await this.sleep(backoffDelay(retryIndex, cfg.backoffBaseMs, cfg.backoffMaxMs))) {
        this.settle("unsent", pending.length);
        break;
      }
    }
    return { entries: [] };
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
