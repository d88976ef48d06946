"""Pass-through wrappers for provider streams (sync and async).

Each item is handed to the application unchanged and at once; the wrapper only keeps a
reference to it. When the stream ends, is closed, raises, or is garbage-collected, the
``finish`` callback runs once with the collected items. Anything else (attributes such
as ``response``, ``text_stream``, ...) is delegated to the wrapped stream.
"""

from __future__ import annotations

import time
from typing import Any, Callable, List, Optional

#: ``finish(items, error, completed, latency_ms, ttft_ms)``; must not raise (it is guarded).
FinishFn = Callable[[List[Any], Optional[BaseException], bool, float, Optional[float]], None]
TokenPredicate = Callable[[Any], bool]


class _StreamBase:
    def __init__(self, stream: Any, finish: FinishFn, t0: float,
                 is_token_event: Optional[TokenPredicate] = None) -> None:
        self._sl_stream = stream
        self._sl_finish_fn = finish
        self._sl_t0 = t0
        self._sl_is_token = is_token_event
        self._sl_items: List[Any] = []
        self._sl_ttft: Optional[float] = None
        self._sl_done = False
        self._sl_iter: Any = None

    def _sl_iterator(self, start: Callable[[Any], Any]) -> Any:
        """The stream's iterator, taken with ``start(stream)`` at the first item (lazily)."""
        if self._sl_iter is None:
            self._sl_iter = start(self._sl_stream)
        return self._sl_iter

    def _sl_add(self, item: Any) -> Any:
        """Record ``item`` (and the time to the first token); returns it unchanged."""
        self._sl_items.append(item)
        if self._sl_ttft is None:
            check = self._sl_is_token
            try:
                if check is None or check(item):
                    self._sl_ttft = (time.perf_counter() - self._sl_t0) * 1000.0
            except Exception:
                self._sl_ttft = (time.perf_counter() - self._sl_t0) * 1000.0
        return item

    def _sl_finish(self, error: Optional[BaseException], completed: bool) -> None:
        if self._sl_done:
            return
        self._sl_done = True
        try:
            latency = (time.perf_counter() - self._sl_t0) * 1000.0
            self._sl_finish_fn(self._sl_items, error, completed, latency, self._sl_ttft)
        except Exception:
            pass

    def _sl_ended(self, exc: BaseException) -> None:
        """The wrapped iterator raised ``exc``: its end (Stop(Async)Iteration) or an error."""
        if isinstance(exc, (StopIteration, StopAsyncIteration)):
            self._sl_finish(None, True)
        elif isinstance(exc, Exception):
            self._sl_finish(exc, False)

    def _sl_closing(self, exc: Optional[BaseException] = None) -> "_Closing":
        """Context manager: log what was received when the block ends, however it ends."""
        return _Closing(self, exc if isinstance(exc, Exception) else None)

    def __getattr__(self, name: str) -> Any:
        # only called for attributes not found on the wrapper itself
        if name.startswith("_sl_"):
            raise AttributeError(name)
        return getattr(self._sl_stream, name)

    def __del__(self) -> None:
        try:
            if not self._sl_done:
                self._sl_finish(None, False)
        except Exception:
            pass


class _Closing:
    """``with proxy._sl_closing(exc):`` runs ``proxy._sl_finish(exc, False)`` on leaving."""

    __slots__ = ("proxy", "error")

    def __init__(self, proxy: _StreamBase, error: Optional[BaseException]) -> None:
        self.proxy = proxy
        self.error = error

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc_info: Any) -> None:
        self.proxy._sl_finish(self.error, False)


def _aiter(stream: Any) -> Any:
    return stream.__aiter__()  # builtin aiter() needs Python 3.10


def _close_sync(stream: Any) -> None:
    closer = getattr(stream, "close", None)
    if callable(closer):
        closer()


async def _close_async(stream: Any) -> None:
    closer = getattr(stream, "close", None) or getattr(stream, "aclose", None)
    if callable(closer):
        result = closer()
        if hasattr(result, "__await__"):
            await result


class SyncStreamProxy(_StreamBase):
    """Iterator/context-manager wrapper around a synchronous provider stream.

    Supports ``for event in s``, ``next(s)``, ``with s:``, ``s.close()`` and attribute
    delegation. Exceptions raised by the stream are re-raised unchanged.
    """

    def __iter__(self) -> "SyncStreamProxy":
        return self

    def __next__(self) -> Any:
        iterator = self._sl_iterator(iter)
        try:
            item = next(iterator)
        except BaseException as exc:
            self._sl_ended(exc)
            raise
        return self._sl_add(item)

    def close(self) -> None:
        """Close the underlying stream (if it can be closed) and log what was received."""
        with self._sl_closing():
            _close_sync(self._sl_stream)

    def __enter__(self) -> "SyncStreamProxy":
        enter = getattr(self._sl_stream, "__enter__", None)
        if callable(enter):
            enter()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        with self._sl_closing(exc):
            exit_ = getattr(self._sl_stream, "__exit__", None)
            return exit_(exc_type, exc, tb) if callable(exit_) else _close_sync(self._sl_stream)


class AsyncStreamProxy(_StreamBase):
    """Async-iterator/async-context-manager wrapper around an asynchronous provider stream.

    Supports ``async for``, ``await s.__anext__()``, ``async with s:``, ``await s.close()``
    / ``await s.aclose()`` and attribute delegation.
    """

    def __aiter__(self) -> "AsyncStreamProxy":
        return self

    async def __anext__(self) -> Any:
        iterator = self._sl_iterator(_aiter)
        try:
            item = await iterator.__anext__()
        except BaseException as exc:
            self._sl_ended(exc)
            raise
        return self._sl_add(item)

    async def close(self) -> None:
        """Close the underlying stream (``close()`` or ``aclose()``) and log what was received."""
        with self._sl_closing():
            await _close_async(self._sl_stream)

    async def aclose(self) -> None:
        """Alias of :meth:`close` (async-generator protocol)."""
        await self.close()

    async def __aenter__(self) -> "AsyncStreamProxy":
        enter = getattr(self._sl_stream, "__aenter__", None)
        if callable(enter):
            await enter()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        with self._sl_closing(exc):
            exit_ = getattr(self._sl_stream, "__aexit__", None)
            return await exit_(exc_type, exc, tb) if callable(exit_) else await _close_async(self._sl_stream)
