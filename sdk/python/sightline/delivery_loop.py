"""Background delivery: a daemon thread drains the queue in batches and posts each record.

The delivery thread wakes every ``flush_interval`` seconds, as soon as ``batch_size`` records are
queued, or when :meth:`DeliveryLoop.flush` asks. It encodes records to JSON (never on the
application's thread) and hands them to :func:`~sightline.transport.send_with_retry`.
Records held by an outage (network error, 429, 502-504, ``Retry-After``) go back to the
front of the bounded queue and are retried after ``Retry-After`` or a backoff, until they
are delivered or evicted as the oldest by newer records.

:meth:`DeliveryLoop.flush` and :meth:`DeliveryLoop.shutdown` wait at most
``config.flush_timeout`` seconds (5 s) unless told otherwise, and every record taken from
the queue is counted once: sent, rejected, failed, invalid, unsent, or handed back to the
queue (see :class:`~sightline.queue.BoundedQueue`). Mirrors ``sdk/js/src/delivery-loop.ts``.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Dict, List, Optional, Tuple

from .config import Config
from .entry import LogEntry
from .queue import BoundedQueue
from .transport import RETRY, Outcome, Transport, outage_delay, send_with_retry

logger = logging.getLogger("sightline")

PostFn = Callable[[bytes], Outcome]


class DeliveryLoop:
    """Owns the queue, the delivery thread and the delivery counters of one configuration.

    The thread starts lazily on the first record. Every failure inside is reported to
    ``config.on_error`` (guarded) or logged at DEBUG level on the ``sightline`` logger;
    nothing propagates to callers of :meth:`submit`.

    Args:
        config: an active :class:`~sightline.config.Config` (``api_key`` set).
        post: replaces :meth:`Transport.post` (tests).
    """

    def __init__(self, config: Config, post: Optional[PostFn] = None) -> None:
        self.config = config
        self.queue: BoundedQueue[LogEntry] = BoundedQueue(config.max_queue_size, config.batch_size)
        self._post: PostFn = post or Transport(config.log_url, config.api_key or "", config.timeout).post
        self._thread: Optional[threading.Thread] = None
        self._thread_failed = False
        self._start_lock = threading.Lock()
        self._drain_lock = threading.Lock()
        self._abort = threading.Event()
        self._stop = False
        self._closed = False
        self._flush_requested = False
        self.sent = 0
        self.rejected = 0
        self.failed = 0
        self.retries = 0
        #: Records given up by :meth:`shutdown` (written by the caller's thread only).
        self.unsent = 0
        self.invalid = 0
        #: Records of the current batch not counted yet (delivery thread only).
        self._unaccounted = 0
        #: Consecutive delivery rounds ended by a service-wide failure (backoff exponent).
        self._outage_rounds = 0

    # -- application side ---------------------------------------------------------------
    def submit(self, entry: LogEntry) -> None:
        """Queue one record (cheap; drops the oldest record when the queue is full)."""
        if self._closed:
            return
        if self._thread is None and not self._thread_failed:
            self._start_thread()
        self.queue.put(entry)

    def _start_thread(self) -> None:
        with self._start_lock:
            if self._thread is not None or self._thread_failed or self._closed:
                return
            thread = threading.Thread(target=self._run, name="sightline-delivery", daemon=True)
            try:
                thread.start()
            except RuntimeError as exc:  # e.g. "can't create new thread at interpreter shutdown"
                self._thread_failed = True
                self.report(exc)
                return
            self._thread = thread

    def flush(self, timeout: Optional[float] = None) -> bool:
        """Block until every queued record has been handled or ``timeout`` seconds pass.

        "Handled" means sent, rejected or given up after retries (see :meth:`stats`).
        ``timeout=None`` means ``config.flush_timeout`` (5 s by default); ``math.inf``
        waits without a bound. Returns ``True`` when nothing is pending any more,
        ``False`` on timeout (the records stay queued and delivery goes on).
        """
        if timeout is None:
            timeout = self.config.flush_timeout
        deadline = time.monotonic() + max(0.0, timeout)
        thread = self._thread
        if thread is threading.current_thread():  # e.g. flush() inside on_error: would deadlock
            return False
        if thread is None or not thread.is_alive():
            return self._drain_inline(deadline)
        q = self.queue
        with q.cond:
            self._flush_requested = True
            q.cond.notify_all()
            while q.pending() > 0:
                if not thread.is_alive():
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                q.cond.wait(min(left, 0.5))
            else:
                return True
        return self._drain_inline(deadline)

    def shutdown(self, timeout: Optional[float] = None) -> bool:
        """Flush (up to ``timeout`` seconds, ``None``: ``config.flush_timeout``), then stop
        the thread; later records are ignored.

        Every record not delivered by then (queued, or in flight on a request that has not
        answered) is counted once as ``unsent``; a late answer to it is not counted again.
        Returns ``True`` when everything was handled in time.
        """
        self._closed = True
        ok = self.flush(timeout)
        q = self.queue
        with q.cond:
            self._stop = True
            q.cond.notify_all()
        if not ok:
            self._abort.set()
        thread = self._thread
        if thread is not None and thread.is_alive() and thread is not threading.current_thread():
            thread.join(1.0 if ok else 0.2)
        self.unsent += q.abandon()
        return ok

    def stats(self) -> Dict[str, int]:
        """Delivery counters since configuration (see :func:`sightline.stats`)."""
        q = self.queue
        return {
            "queued": len(q),
            "in_flight": q.in_flight,
            "enqueued": q.enqueued,
            "sent": self.sent,
            "dropped": q.dropped,
            "rejected": self.rejected,
            "failed": self.failed,
            "retries": self.retries,
            "unsent": self.unsent,
            "invalid": self.invalid,
        }

    def reinit_after_fork(self) -> None:
        """Called in a forked child: new locks, no thread, empty queue."""
        self.queue.reinit_after_fork()
        self._thread = None
        self._thread_failed = False
        self._start_lock = threading.Lock()
        self._drain_lock = threading.Lock()
        self._abort = threading.Event()
        self._flush_requested = False
        self._outage_rounds = 0

    # -- delivery side ------------------------------------------------------------------
    def report(self, exc: BaseException) -> None:
        """Hand an internal error to ``on_error`` (guarded) or the debug log. Never raises."""
        handler = self.config.on_error
        if handler is not None:
            try:
                handler(exc)
                return
            except Exception:  # the handler itself failed: fall back to the log
                logger.debug("sightline: on_error handler raised", exc_info=True)
        try:
            logger.debug("sightline: %s: %s", type(exc).__name__, exc)
        except Exception:
            pass

    def _run(self) -> None:
        q = self.queue
        cfg = self.config
        while True:
            try:
                with q.cond:
                    deadline = time.monotonic() + cfg.flush_interval
                    while not self._stop and not self._flush_requested and len(q) < cfg.batch_size:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            break
                        q.cond.wait(left)
                    if self._stop and len(q) == 0:
                        return
                    if len(q) == 0:
                        self._flush_requested = False
                        q.cond.notify_all()
                        continue
                self._drain(None)
            except Exception as exc:  # keep the thread alive whatever happens
                self.report(exc)
                if self._abort.wait(0.05):
                    return

    def _drain_inline(self, deadline: Optional[float]) -> bool:
        """Drain on the calling thread (no live delivery thread, e.g. at interpreter exit)."""
        try:
            self._drain(deadline)
        except Exception as exc:
            self.report(exc)
        return self.queue.pending() == 0

    def _drain(self, deadline: Optional[float]) -> None:
        q = self.queue
        with self._drain_lock:
            while not self._abort.is_set():
                if deadline is not None and time.monotonic() >= deadline:
                    return
                batch = q.take(self.config.batch_size)
                if not batch:
                    with q.cond:
                        if len(q) == 0:
                            self._flush_requested = False
                            q.cond.notify_all()
                            return
                    continue
                held: List[LogEntry] = []
                retry_after: Optional[float] = None
                self._unaccounted = len(batch)
                try:
                    held, retry_after = self._deliver(batch, deadline)
                finally:
                    self._unaccounted -= len(held)
                    q.requeue(held)
                    # Only a broken post function (it raised) leaves records uncounted.
                    self._settle("failed", self._unaccounted)
                if not held:
                    self._outage_rounds = 0
                    continue
                # Service-wide failure or a stop: the records are back in the buffer; unless
                # delivery must stop now, wait, then retry them.
                if self._abort.is_set() or (deadline is not None and time.monotonic() >= deadline):
                    return
                cfg = self.config
                delay = outage_delay(retry_after, self._outage_rounds, cfg.backoff_base,
                                     cfg.backoff_max, cfg.retry_after_max)
                self._outage_rounds += 1
                self.retries += 1
                if self._sleep(delay, deadline):
                    return

    def _settle(self, counter: str, count: int) -> None:
        """Count ``count`` records of the current batch as ``counter`` (``sent``,
        ``rejected``, ``failed``, ``invalid``); nothing once :meth:`shutdown`
        counted them as unsent."""
        if count <= 0:
            return
        self._unaccounted -= count
        if self.queue.settle(count):
            setattr(self, counter, getattr(self, counter) + count)

    def _post_in_time(self, body: bytes, deadline: Optional[float]) -> Outcome:
        """POST one record, unless delivery must stop: after a shutdown past its bound
        (the records are counted as unsent already) or past the ``deadline`` of a flush
        draining on the caller's thread (the record is held and stays queued). So a flush
        overruns its bound by at most one request's ``timeout``."""
        if self._abort.is_set() or (deadline is not None and time.monotonic() >= deadline):
            return Outcome(RETRY, error=RuntimeError("sightline: delivery stopped"), service_wide=True)
        return self._post(body)

    def _sleep(self, seconds: float, deadline: Optional[float]) -> bool:
        """Wait ``seconds``; ``True`` when delivery must stop now (shutdown, or the flush
        deadline comes first)."""
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= seconds:
                if left > 0:
                    self._abort.wait(left)
                return True
        return self._abort.wait(seconds)

    def _deliver(self, batch: List[LogEntry],
                 deadline: Optional[float]) -> Tuple[List[LogEntry], Optional[float]]:
        """Encode and send ``batch``; returns the records held by an outage and its
        ``Retry-After`` (seconds, uncapped)."""
        pairs: List[Tuple[LogEntry, bytes]] = []
        max_bytes = _max_body_bytes()
        for entry in batch:
            try:
                pairs.append((entry, entry.encode(max_bytes)))
            except Exception as exc:
                self._settle("invalid", 1)
                self.report(exc)
        if not pairs:
            return [], None
        cfg = self.config
        post = self._post_in_time
        result = send_with_retry(
            lambda pair: post(pair[1], deadline), pairs, cfg.max_retries, cfg.backoff_base,
            cfg.backoff_max, lambda seconds: self._sleep(seconds, deadline), self.report,
            self._settle,
        )
        self.retries += result.retries
        return [entry for entry, _ in result.held], result.retry_after


def _max_body_bytes() -> int:
    from . import config as _config  # read at call time so tests can lower the limit

    return _config.MAX_BODY_BYTES
