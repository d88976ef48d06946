/**
 * Bounded in-memory FIFO of logged-call records. When full, `put` evicts the OLDEST record and
 * counts it (`dropped`), so a dead API costs bounded memory and the newest calls survive.
 * Records held by an API outage go back to the front (`done(count, requeue)`), so the bound
 * and the oldest-first eviction apply to them too. Same behaviour as `sightline/queue.py`.
 */
export class BoundedQueue<T> {
  private items: (T | undefined)[] = [];
  private head = 0;
  /** Records accepted since creation. */
  enqueued = 0;
  /** Records evicted because the queue was full. */
  dropped = 0;
  /** Records taken by the delivery loop and not yet finished. */
  inFlight = 0;
  /** Set by `clear()` (shutdown, reconfiguration): records handed back afterwards are not kept. */
  private closed = false;

  /** @param maxSize most records held (>= 1). */
  constructor(readonly maxSize: number) {}

  /** Number of queued records (not counting in-flight ones). */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Appends `item`; evicts (and counts) the oldest when full. O(1) amortised. */
  put(item: T): void {
    if (this.length >= this.maxSize) {
      this.items[this.head++] = undefined;
      this.dropped++;
    }
    this.items.push(item);
    this.enqueued++;
    if (this.head > 1024 && this.head * 2 > this.items.length) this.compact();
  }

  /** Removes up to `limit` oldest records and marks them in flight. */
  take(limit: number): T[] {
    const count = Math.min(limit, this.length);
    const batch = this.items.slice(this.head, this.head + count) as T[];
    for (let i = this.head; i < this.head + count; i++) this.items[i] = undefined;
    this.head += count;
    this.inFlight += count;
    if (this.length === 0) {
      this.items = [];
      this.head = 0;
    }
    return batch;
  }

  /**
   * Marks `count` in-flight records finished. `requeue` (some of them, oldest first) goes
   * back to the FRONT, as they are older than anything queued since; then the oldest records
   * beyond `maxSize` are evicted and counted as `dropped`. Returns how many of `requeue` were
   * not kept because `clear()` closed the queue (the caller counts them as unsent).
   */
  done(count: number, requeue: readonly T[] = []): number {
    this.inFlight = Math.max(0, this.inFlight - count);
    if (requeue.length === 0) return 0;
    if (this.closed) return requeue.length;
    let all = requeue.concat(this.items.slice(this.head) as T[]);
    const over = all.length - this.maxSize;
    if (over > 0) {
      all = all.slice(over);
      this.dropped += over;
    }
    this.items = all;
    this.head = 0;
    return 0;
  }

  /** Removes every queued record and closes the queue; returns them (oldest first). */
  clear(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    this.closed = true;
    return rest;
  }

  /** Queued plus in-flight records. */
  pending(): number {
    return this.length + this.inFlight;
  }

  private compact(): void {
    this.items = this.items.slice(this.head);
    this.head = 0;
  }
}
