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
                 is_token_event: Optional[TokenPredicate]) -> None:
        self._sl_stream = stream
        self._sl_finish_fn = finish
        self._sl_t0 = t0
        self._sl_is_token = is_token_event
        self._sl_items: List[Any] = []
        self._sl_ttft: Optional[float] = None
        self._sl_done = False

    def _sl_add(self, item: Any) -> None:
        self._sl_items.append(item)
        if self._sl_ttft is None:
            check = self._sl_is_token
            try:
                if check is None or check(item):
                    self._sl_ttft = (time.perf_counter() - self._sl_t0) * 1000.0
            except Exception:
                self._sl_ttft = (time.perf_counter() - self._sl_t0) * 1000.0

    def _sl_finish(self, error: Optional[BaseException], completed: bool) -> None:
        if self._sl_done:
            return
        self._sl_done = True
        try:
            latency = (time.perf_counter() - self._sl_t0) * 1000.0
            self._sl_finish_fn(self._sl_items, error, completed, latency, self._sl_ttft)
        except Exception:
            pass

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


class SyncStreamProxy(_StreamBase):
    """Iterator/context-manager wrapper around a synchronous provider stream.

    Supports ``for event in s``, ``next(s)``, ``with s:``, ``s.close()`` and attribute
    delegation. Exceptions raised by the stream are re-raised unchanged.
    """

    def __init__(self, stream: Any, finish: FinishFn, t0: float,
                 is_token_event: Optional[TokenPredicate] = None) -> None:
        super().__init__(stream, finish, t0, is_token_event)
        self._sl_iter: Any = None

    def __iter__(self) -> "SyncStreamProxy":
        return self

    def __next__(self) -> Any:
        if self._sl_iter is None:
            self._sl_iter = iter(self._sl_stream)
        try:
            item = next(self._sl_iter)
        except StopIteration:
            self._sl_finish(None, True)
            raise
        except Exception as exc:
            self._sl_finish(exc, False)
            raise
        self._sl_add(item)
        return item

    def close(self) -> None:
        """Close the underlying stream (if it can be closed) and log what was received."""
        try:
            closer = getattr(self._sl_stream, "close", None)
            if callable(closer):
                closer()
        finally:
            self._sl_finish(None, False)

    def __enter__(self) -> "SyncStreamProxy":
        enter = getattr(self._sl_stream, "__enter__", None)
        if callable(enter):
            enter()
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        try:
            exit_ = getattr(self._sl_stream, "__exit__", None)
            if callable(exit_):
                return exit_(exc_type, exc, tb)
            closer = getattr(self._sl_stream, "close", None)
            if callable(closer):
                closer()
            return None
        finally:
            self._sl_finish(exc if isinstance(exc, Exception) else None, False)


class AsyncStreamProxy(_StreamBase):
    """Async-iterator/async-context-manager wrapper around an asynchronous provider stream.

    Supports ``async for``, ``await s.__anext__()``, ``async with s:``, ``await s.close()``
    / ``await s.aclose()`` and attribute delegation.
    """

    def __init__(self, stream: Any, finish: FinishFn, t0: float,
                 is_token_event: Optional[TokenPredicate] = None) -> None:
        super().__init__(stream, finish, t0, is_token_event)
        self._sl_aiter: Any = None

    def __aiter__(self) -> "AsyncStreamProxy":
        return self

    async def __anext__(self) -> Any:
        if self._sl_aiter is None:
            self._sl_aiter = self._sl_stream.__aiter__()
        try:
            item = await self._sl_aiter.__anext__()
        except StopAsyncIteration:
            self._sl_finish(None, True)
            raise
        except Exception as exc:
            self._sl_finish(exc, False)
            raise
        self._sl_add(item)
        return item

    async def close(self) -> None:
        """Close the underlying stream (``close()`` or ``aclose()``) and log what was received."""
        try:
            closer = getattr(self._sl_stream, "close", None) or getattr(self._sl_stream, "aclose", None)
            if callable(closer):
                result = closer()
                if hasattr(result, "__await__"):
                    await result
        finally:
            self._sl_finish(None, False)

    async def aclose(self) -> None:
        """Alias of :meth:`close` (async-generator protocol)."""
        await self.close()

    async def __aenter__(self) -> "AsyncStreamProxy":
        enter = getattr(self._sl_stream, "__aenter__", None)
        if callable(enter):
            await enter()
        return self

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        try:
            exit_ = getattr(self._sl_stream, "__aexit__", None)
            if callable(exit_):
                return await exit_(exc_type, exc, tb)
            closer = getattr(self._sl_stream, "close", None) or getattr(self._sl_stream, "aclose", None)
            if callable(closer):
                result = closer()
                if hasattr(result, "__await__"):
                    await result
            return None
        finally:
            self._sl_finish(exc if isinstance(exc, Exception) else None, False)
