/**
 * Bounded in-memory FIFO of captured records. When full, `put` evicts the OLDEST record and
 * counts it (`dropped`), so a dead API costs bounded memory and the newest calls survive.
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

  /** Marks `count` in-flight records finished. */
  done(count: number): void {
    this.inFlight = Math.max(0, this.inFlight - count);
  }

  /** Removes every queued record; returns them (oldest first). */
  clear(): T[] {
    const rest = this.items.slice(this.head) as T[];
    this.items = [];
    this.head = 0;
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
