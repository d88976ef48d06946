"""Bounded in-memory queue of captured records (drop-oldest when full).

``collections.deque(maxlen=...)`` would drop silently; the bound is implemented here
explicitly so every eviction is counted (``stats()["dropped"]``).
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Deque, Generic, List, Optional, TypeVar

T = TypeVar("T")


class BoundedQueue(Generic[T]):
    """Thread-safe FIFO with a size bound; when full, :meth:`put` evicts the oldest item.

    ``cond`` is the queue's condition variable (its lock guards every field); the worker
    waits on it and :meth:`put` notifies it when ``wake_at`` items are queued.

    Args:
        maxsize: most items held (>= 1).
        wake_at: queue length at which :meth:`put` wakes the worker (the batch size).
    """

    def __init__(self, maxsize: int, wake_at: int) -> None:
        self.maxsize = maxsize
        self.wake_at = wake_at
        self.cond = threading.Condition(threading.Lock())
        self._items: Deque[T] = deque()
        self.enqueued = 0
        self.dropped = 0
        self.in_flight = 0

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

    def done(self, count: int) -> None:
        """Mark ``count`` in-flight items finished and wake anyone waiting in ``flush``."""
        with self.cond:
            self.in_flight = max(0, self.in_flight - count)
            self.cond.notify_all()

    def clear(self) -> int:
        """Remove every queued item; returns how many were removed."""
        with self.cond:
            count = len(self._items)
            self._items.clear()
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
        return count
