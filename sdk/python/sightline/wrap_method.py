"""Shared mechanics of direct mode: wrap one provider method so each call is logged.

The wrapper calls the original method, hands its result (or exception) to the application
unchanged, and queues a :class:`~sightline.entry.LogEntry`. Sync and async methods are told
apart at call time (an awaitable result means async), because provider SDKs wrap their
async methods in plain functions (e.g. anthropic's ``required_args``).
"""

from __future__ import annotations

import functools
import inspect
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Tuple

from . import client as _client
from .entry import Extractor, LogEntry
from .serialize import snapshot
from .session import take_session_header
from .stream import AsyncStreamProxy, SyncStreamProxy, TokenPredicate

#: ``extract(events) -> (response_body, prompt_tokens, completion_tokens, metadata)``
StreamExtractor = Callable[[List[Any]], Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]]

_REDACTED_KWARGS = frozenset({"extra_headers", "request_options"})
WRAPPED_MARK = "_sightline_wrapped"


def request_snapshot(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """Shallow-structural copy of call kwargs (plus positional args under ``"_args"``).

    Per-request headers and request options may carry credentials: their values are
    replaced by ``"<redacted>"``.
    """
    body: Dict[str, Any] = {}
    for key, value in kwargs.items():
        body[key] = "<redacted>" if key in _REDACTED_KWARGS else snapshot(value)
    if args:
        body["_args"] = snapshot(list(args))
    return body


class CallSpec(NamedTuple):
    """How to log one provider method (immutable).

    Attributes:
        provider: provider name written to the record.
        extract: converts a non-streamed response.
        stream_extract: converts the list of stream events.
        is_token_event: marks the first content event (for ``ttft_ms``).
        always_stream: the method always returns a stream (e.g. cohere ``chat_stream``);
            otherwise a call streams when its ``stream`` kwarg is ``True``.
        session_id: conversation of every call (``metadata.session_id``); a per-call
            ``X-Sightline-Session-Id`` header wins.
    """

    provider: str
    extract: Extractor
    stream_extract: StreamExtractor
    is_token_event: Optional[TokenPredicate] = None
    always_stream: bool = False
    session_id: Optional[str] = None


def _submit(spec: CallSpec, kwargs: Dict[str, Any], request: Dict[str, Any], response: Any,
            started: float, latency_ms: float, error: Optional[BaseException],
            metadata: Dict[str, Any], extract: Optional[Extractor]) -> None:
    try:
        if spec.session_id is not None:
            metadata = {**metadata, "session_id": spec.session_id}
        _client.record(LogEntry(kwargs.get("model"), spec.provider, request, response, started,
                                latency_ms, metadata, error, extract))
    except Exception:  # never let logging reach the application
        pass


def _stream_finisher(spec: CallSpec, kwargs: Dict[str, Any], request: Dict[str, Any],
                     started: float) -> Callable[[List[Any], Optional[BaseException], bool, float, Optional[float]], None]:
    def finish(items: List[Any], error: Optional[BaseException], completed: bool,
               latency_ms: float, ttft_ms: Optional[float]) -> None:
        metadata: Dict[str, Any] = {"stream": True}
        if ttft_ms is not None:
            metadata["ttft_ms"] = int(round(ttft_ms))
        if not completed and error is None:
            metadata["stream_completed"] = False
        _submit(spec, kwargs, request, items, started, latency_ms, error, metadata, spec.stream_extract)
    return finish


def _wrap_result(spec: CallSpec, result: Any, streaming: bool, kwargs: Dict[str, Any],
                 request: Dict[str, Any], started: float, t0: float) -> Any:
    """Attach logging to a provider result (already awaited if it was a coroutine)."""
    if streaming:
        finish = _stream_finisher(spec, kwargs, request, started)
        if hasattr(result, "__aiter__"):
            return AsyncStreamProxy(result, finish, t0, spec.is_token_event)
        if hasattr(result, "__iter__") or hasattr(result, "__next__"):
            return SyncStreamProxy(result, finish, t0, spec.is_token_event)
    latency = (time.perf_counter() - t0) * 1000.0
    _submit(spec, kwargs, request, result, started, latency, None, {"stream": False}, spec.extract)
    return result


def wrap_method(original: Callable[..., Any], base_spec: CallSpec) -> Callable[..., Any]:
    """Return a function with ``original``'s signature that logs every call.

    The original's return value (response object, stream, or coroutine result) reaches
    the caller unchanged; streams are wrapped item-by-item. Exceptions from the provider
    propagate unchanged (same object) after being queued as a failed call.
    """

    async def _await_and_wrap(spec: CallSpec, awaitable: Any, streaming: bool, kwargs: Dict[str, Any],
                              request: Dict[str, Any], started: float, t0: float) -> Any:
        try:
            result = await awaitable
        except Exception as exc:
            _submit(spec, kwargs, request, None, started, (time.perf_counter() - t0) * 1000.0,
                    exc, {"stream": streaming}, None)
            raise
        try:
            return _wrap_result(spec, result, streaming, kwargs, request, started, t0)
        except Exception:
            return result

    @functools.wraps(original)
    def wrapper(*args: Any, **given: Any) -> Any:
        # The per-call session header is Sightline's, not the provider's: always taken off.
        kwargs, call_session = take_session_header(given)
        if _client.current_delivery_loop() is None:
            return original(*args, **kwargs)
        spec = base_spec if call_session is None else base_spec._replace(session_id=call_session)
        started = time.time()
        t0 = time.perf_counter()
        streaming = spec.always_stream or kwargs.get("stream") is True
        try:
            request = request_snapshot(args, kwargs)
        except Exception:
            request = {}
        try:
            result = original(*args, **kwargs)
        except Exception as exc:
            _submit(spec, kwargs, request, None, started, (time.perf_counter() - t0) * 1000.0,
                    exc, {"stream": streaming}, None)
            raise
        try:
            if inspect.isawaitable(result) and not hasattr(result, "__aiter__"):
                return _await_and_wrap(spec, result, streaming, kwargs, request, started, t0)
            return _wrap_result(spec, result, streaming, kwargs, request, started, t0)
        except Exception:
            return result

    setattr(wrapper, WRAPPED_MARK, True)
    return wrapper


def patch_method(target: Any, name: str, spec: CallSpec) -> bool:
    """Replace ``target.<name>`` by a logging wrapper on the instance (idempotent).

    Returns ``True`` when the method exists and is (now) wrapped.
    """
    try:
        original = getattr(target, name, None)
    except Exception:
        return False
    if not callable(original):
        return False
    if getattr(original, WRAPPED_MARK, False):
        return True
    try:
        setattr(target, name, wrap_method(original, spec))
    except Exception:
        return False
    return True
