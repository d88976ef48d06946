"""Bounded in-memory queue of logged-call records (drop-oldest when full).

``collections.deque(maxlen=...)`` would drop silently; the bound is implemented here
explicitly so every eviction is counted (``stats()["dropped"]``). Records held by an API
outage go back to the front (:meth:`BoundedQueue.requeue`), so the bound and the
oldest-first eviction apply to them too. Every item taken is accounted for once:
:meth:`~BoundedQueue.settle` (handled), :meth:`~BoundedQueue.requeue` (held) or
:meth:`~BoundedQueue.abandon` (given up at shutdown). Same behaviour as
``sdk/js/src/queue.ts``.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Deque, Generic, List, Optional, Sequence, TypeVar

T = TypeVar("T")


class BoundedQueue(Generic[T]):
    """Thread-safe FIFO with a size bound; when full, :meth:`put` evicts the oldest item.

    ``cond`` is the queue's condition variable (its lock guards every field); the delivery
    thread waits on it and :meth:`put` notifies it when ``wake_at`` items are queued.

    Args:
        maxsize: most items held (>= 1).
        wake_at: queue length at which :meth:`put` wakes the delivery thread (the batch size).
    """

    def __init__(self, maxsize: int, wake_at: int) -> None:
        self.maxsize = maxsize
        self.wake_at = wake_at
        self.cond = threading.Condition(threading.Lock())
        self._items: Deque[T] = deque()
        self.enqueued = 0
        self.dropped = 0
        self.in_flight = 0
        #: Set by :meth:`abandon` (shutdown): the items queued or in flight then were
        #: counted once, as unsent; later outcomes of in-flight items are not counted.
        self.abandoned = False

    def put(self, item: T) -> None:
        """Append ``item``; evict (and count) the oldest item when full. O(1), never blocks long."""
        with self.cond:
            items = self._items
            if len(items) >= self.maxsize:
                items.popleft()
                self.dropped += 1
            items.append(item)
            self.enqueued += 1
            if len(items) >= self.wake_at:
                self.cond.notify()

    def take(self, limit: int) -> List[T]:
        """Remove up to ``limit`` oldest items and mark them in flight (caller holds no lock)."""
        with self.cond:
            return self.take_locked(limit)

    def take_locked(self, limit: int) -> List[T]:
        """Like :meth:`take`; the caller already holds ``cond``."""
        items = self._items
        count = min(limit, len(items))
        batch = [items.popleft() for _ in range(count)]
        self.in_flight += count
        return batch

    def settle(self, count: int) -> bool:
        """Mark ``count`` in-flight items handled (sent, rejected, given up...) and wake
        anyone waiting in ``flush``. Returns ``False`` when :meth:`abandon` already counted
        them as unsent: the caller then counts nothing."""
        with self.cond:
            if self.abandoned:
                return False
            self.in_flight = max(0, self.in_flight - count)
            self.cond.notify_all()
            return True

    def requeue(self, items: Sequence[T]) -> None:
        """Hand in-flight items held by an outage back, oldest first, to the FRONT of the
        queue (they are older than anything queued since); then the oldest items beyond
        ``maxsize`` are evicted and counted as ``dropped``. Keeps nothing after
        :meth:`abandon`, which counted them already."""
        if not items:
            return
        with self.cond:
            if self.abandoned:
                return
            self.in_flight = max(0, self.in_flight - len(items))
            self._items.extendleft(reversed(items))
            while len(self._items) > self.maxsize:
                self._items.popleft()
                self.dropped += 1
            self.cond.notify_all()

    def abandon(self) -> int:
        """Give up every item not delivered yet (shutdown): empty and close the queue and
        forget the in-flight items, so that their late outcomes are not counted
        (:meth:`settle` returns ``False``). Returns how many items that was."""
        with self.cond:
            count = len(self._items) + self.in_flight
            self._items.clear()
            self.in_flight = 0
            self.abandoned = True
            self.cond.notify_all()
            return count

    def __len__(self) -> int:
        return len(self._items)

    def pending(self) -> int:
        """Queued plus in-flight items (caller should hold ``cond`` for a consistent view)."""
        return len(self._items) + self.in_flight

    def reinit_after_fork(self) -> Optional[int]:
        """In a forked child: fresh lock, empty queue (the parent sends its own copies)."""
        self.cond = threading.Condition(threading.Lock())
        count = len(self._items)
        self._items.clear()
        self.in_flight = 0
        self.abandoned = False
        return count
