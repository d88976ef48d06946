/**
 * Bounded in-memory FIFO of logged-call records. When full, `put` evicts the OLDEST record and
 * counts it (`dropped`), so a dead API costs bounded memory and the newest calls survive.
 * Records held by an API outage go back to the front (`requeue`), so the bound and the
 * oldest-first eviction apply to them too. Every record taken is accounted for once:
 * `settle` (handled), `requeue` (held) or `abandon` (given up at shutdown). Same behaviour as `sightline/queue.py`.
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
  /** Set by `abandon()`: the records in flight then were counted once, as unsent. */
  private abandoned = false;

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
   * Marks `count` in-flight records handled (sent, rejected, given up...). Returns `false`
   * when `abandon()` already counted them as unsent: the caller then counts nothing.
   */
  settle(count: number): boolean {
    if (this.abandoned) return false;
    this.inFlight = Math.max(0, this.inFlight - count);
    return true;
  }

  /**
   * Hands in-flight records held by an outage back, oldest first, to the FRONT (they are
   * older than anything queued since); then the oldest records beyond `maxSize` are evicted
   * and counted as `dropped`. Returns how many were not kept because `clear()` closed the
   * queue (the caller counts them as unsent); 0 after `abandon()`, which counted them already.
   */
  requeue(items: readonly T[]): number {
    if (this.abandoned || items.length === 0) return 0;
    this.inFlight = Math.max(0, this.inFlight - items.length);
    if (this.closed) return items.length;
    let all = items.concat(this.items.slice(this.head) as T[]);
    const over = all.length - this.maxSize;
    if (over > 0) {
      all = all.slice(over);
      this.dropped += over;
    }
    this.items = all;
    this.head = 0;
    return 0;
  }

  /** Removes every queued record and closes the queue; returns them (oldest first). In-flight records stay in flight. */
  clear(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
    this.closed = true;
    return rest;
  }

  /**
   * Gives up every record not delivered yet (shutdown after its bound): closes the queue,
   * empties it and forgets the in-flight ones, so that their late outcomes are not counted
   * (`settle` returns `false`, `requeue` 0). Returns how many records that was.
   */
  abandon(): number {
    const count = this.length + this.inFlight;
    this.clear();
    this.inFlight = 0;
    this.abandoned = true;
    return count;
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
