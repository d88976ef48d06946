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

F = TypeVar("F", bound=Callable[..., Any])


def _extract_output(raw: Any) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    box = cast(List[Any], raw)
    return {"output": to_jsonable(box[0])}, None, None, {}


def _inputs(args: Tuple[Any, ...], kwargs: Dict[str, Any]) -> Dict[str, Any]:
    try:
        return {"args": snapshot(list(args)), "kwargs": snapshot(kwargs)}
    except Exception:
        return {"args": [], "kwargs": {}}


def _submit(model: str, provider: str, label: str, request: Dict[str, Any], output: Any,
            started: float, t0: float, error: Optional[BaseException]) -> None:
    try:
        response = None if error is not None else [snapshot(output)]
        _client.record(LogEntry(model, provider, request, response, started,
                                (time.perf_counter() - t0) * 1000.0, {"trace": label}, error,
                                _extract_output))
    except Exception:
        pass


@overload
def trace(model: F) -> F: ...


@overload
def trace(model: Optional[str] = None, *, provider: str = "custom",
          name: Optional[str] = None) -> Callable[[F], F]: ...


def trace(model: Union[str, Callable[..., Any], None] = None, *, provider: str = "custom",
          name: Optional[str] = None) -> Any:
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

    The decorated function behaves exactly as before: same return value, same exception
    object re-raised (logged with ``metadata.status = "error"``). Arguments are
    snapshotted before the call, so mutation inside the function is not reflected.
    Generators are logged as their ``repr`` (their items are not captured).
    """
    if callable(model):
        return trace(None, provider=provider, name=name)(model)
    model_name = model or "unknown"

    def decorator(func: F) -> F:
        label = name or getattr(func, "__qualname__", None) or getattr(func, "__name__", "function")

        if inspect.iscoroutinefunction(func):
            @functools.wraps(func)
            async def async_wrapper(*args: Any, **kwargs: Any) -> Any:
                if _client.current_worker() is None:
                    return await func(*args, **kwargs)
                started = time.time()
                t0 = time.perf_counter()
                request = _inputs(args, kwargs)
                try:
                    output = await func(*args, **kwargs)
                except Exception as exc:
                    _submit(model_name, provider, label, request, None, started, t0, exc)
                    raise
                _submit(model_name, provider, label, request, output, started, t0, None)
                return output

            return cast(F, async_wrapper)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if _client.current_worker() is None:
                return func(*args, **kwargs)
            started = time.time()
            t0 = time.perf_counter()
            request = _inputs(args, kwargs)
            try:
                output = func(*args, **kwargs)
            except Exception as exc:
                _submit(model_name, provider, label, request, None, started, t0, exc)
                raise
            _submit(model_name, provider, label, request, output, started, t0, None)
            return output

        return cast(F, wrapper)

    return decorator
