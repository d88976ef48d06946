"""The ``@trace`` decorator: log any function (custom clients, internal models, fine-tunes).

Each call queues one record: ``request_body = {"args": [...], "kwargs": {...}}``,
``response_body = {"output": ...}`` (or ``null`` when the function raised), latency, and
``metadata.trace`` = the function's qualified name. Token counts are estimated from the
text in input and output (``metadata.token_count_source = "estimated"``).
"""

from __future__ import annotations

import functools
import inspect
import time
from typing import Any, Callable, Dict, List, Optional, Tuple, TypeVar, Union, cast, overload

from . import client as _client
from .entry import LogEntry
from .serialize import snapshot, to_jsonable
from .session import clean_session_id

F = TypeVar("F", bound=Callable[..., Any])


def _extract_output(raw: Any) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    box = cast(List[Any], raw)
    return {"output": to_jsonable(box[0])}, None, None, {}


def _inputs(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    try:
        return {"args": snapshot(list(args)), "kwargs": snapshot(kwargs)}
    except Exception:
        return {"args": [], "kwargs": {}}


class _TracedCall:
    """One call of a traced function: inputs snapshotted and clock started on creation.

    ``with _TracedCall(...) as call: return call.done(func(...))`` queues one record: the
    output when ``done`` is reached, else the exception leaving the block (then re-raised
    unchanged). Logging never raises.
    """

    __slots__ = ("model", "provider", "label", "session_id", "request", "started", "t0")

    def __init__(self, model: str, provider: str, label: str, args: Tuple[Any, ...],
                 kwargs: Dict[str, Any], session_id: Optional[str] = None) -> None:
        self.model = model
        self.session_id = session_id
        self.provider = provider
        self.label = label
        self.started = time.time()
        self.t0 = time.perf_counter()
        self.request = _inputs(args, kwargs)

    def __enter__(self) -> "_TracedCall":
        return self

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if isinstance(exc, Exception):
            self._submit(None, exc)

    def done(self, output: Any) -> Any:
        """Queue the successful call; returns ``output`` unchanged."""
        self._submit(output, None)
        return output

    def _submit(self, output: Any, error: Optional[BaseException]) -> None:
        try:
            response = None if error is not None else [snapshot(output)]
            metadata: Dict[str, Any] = {"trace": self.label}
            if self.session_id is not None:
                metadata["session_id"] = self.session_id
            _client.record(LogEntry(self.model, self.provider, self.request, response, self.started,
                                    (time.perf_counter() - self.t0) * 1000.0, metadata,
                                    error, _extract_output))
        except Exception:
            pass


@overload
def trace(model: F) -> F: ...


@overload
def trace(model: Optional[str] = None, *, provider: str = "custom",
          name: Optional[str] = None, session_id: Optional[str] = None) -> Callable[[F], F]: ...


def trace(model: Union[str, Callable[..., Any], None] = None, *, provider: str = "custom",
          name: Optional[str] = None, session_id: Optional[str] = None) -> Any:
    """Decorate a sync or async function so each call is logged.

    Usage::

        @sightline.trace(model="my-finetune-v3")
        def generate(prompt: str) -> str: ...

        @sightline.trace(model="llama-3-70b", provider="vllm", name="summarise")
        async def summarise(text: str) -> str: ...

    Args:
        model: model name written to the record (required by the API; ``"unknown"`` if
            omitted, e.g. with a bare ``@trace``).
        provider: provider name (default ``"custom"``).
        name: label in ``metadata.trace`` (default: the function's ``__qualname__``).
        session_id: conversation the calls belong to (``metadata.session_id``).

    The decorated function behaves exactly as before: same return value, same exception
    object re-raised (logged with ``metadata.status = "error"``). Arguments are
    snapshotted before the call, so mutation inside the function is not reflected.
    Generators are logged as their ``repr`` (their items are not recorded).
    """
    if callable(model):
        return trace(None, provider=provider, name=name, session_id=session_id)(model)
    model_name = model or "unknown"
    session = clean_session_id(session_id)

    def decorator(func: F) -> F:
        label = name or getattr(func, "__qualname__", None) or getattr(func, "__name__", "function")

        if inspect.iscoroutinefunction(func):
            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                if _client.current_delivery_loop() is None:
                    return await func(*args, **kwargs)
                with _TracedCall(model_name, provider, label, args, kwargs, session) as call:
                    return call.done(await func(*args, **kwargs))

            return cast(F, async_wrapper)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _client.current_delivery_loop() is None:
                return func(*args, **kwargs)
            with _TracedCall(model_name, provider, label, args, kwargs, session) as call:
                return call.done(func(*args, **kwargs))

        return cast(F, wrapper)

    return decorator
