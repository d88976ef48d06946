"""Direct mode for Anthropic clients (``anthropic.Anthropic`` and ``anthropic.AsyncAnthropic``).

:func:`wrap_anthropic` patches ``client.messages.create`` (plain and ``stream=True``) and
``client.messages.stream`` (the helper context manager) on that client instance.

Token counts: ``prompt_tokens`` = ``input_tokens`` + ``cache_creation_input_tokens`` +
``cache_read_input_tokens`` (Anthropic reports cached prompt tokens separately);
``completion_tokens`` = ``output_tokens``. For streams they come from the
``message_start`` and ``message_delta`` events.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Dict, List, Optional, Tuple, TypeVar

from . import client as _client
from .wrap_method import CallSpec, WRAPPED_MARK, patch_method, request_snapshot
from .entry import LogEntry
from .serialize import as_int, get_field, to_jsonable
from .session import clean_session_id, take_session_header

PROVIDER = "anthropic"
logger = logging.getLogger("sightline")

C = TypeVar("C")
Usage = Tuple[Optional[int], Optional[int]]


def usage_tokens(usage: Any) -> Usage:
    """(prompt_tokens, completion_tokens) from an Anthropic ``usage`` object or dict."""
    if usage is None:
        return None, None
    parts = [as_int(get_field(usage, k)) for k in
             ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")]
    known = [p for p in parts if p is not None]
    prompt = sum(known) if known else None
    return prompt, as_int(get_field(usage, "output_tokens"))


def extract_message(raw: Any) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    """Extractor for a ``Message`` (non-streamed response or stream snapshot)."""
    body = to_jsonable(raw, use_dict_fallback=True)
    usage = body.get("usage") if isinstance(body, dict) else None
    prompt, completion = usage_tokens(usage)
    return body, prompt, completion, {}


def extract_events(events: List[Any]) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    """Reassemble a ``Message`` from raw stream events.

    Handles ``message_start``, ``content_block_start``, ``content_block_delta``
    (``text_delta``, ``input_json_delta``, ``thinking_delta``, ``signature_delta``,
    ``citations_delta``), ``message_delta`` (stop reason, cumulative usage) and ``error``.
    The result has the shape of a non-streamed message plus ``"event_count"``.
    """
    message: Dict[str, Any] = {"id": None, "type": "message", "role": "assistant", "model": None,
                               "content": [], "stop_reason": None, "stop_sequence": None,
                               "usage": {}}
    blocks: Dict[int, Dict[str, Any]] = {}
    texts: Dict[int, Dict[str, List[str]]] = {}
    order: List[int] = []

    def block_at(index: int) -> Dict[str, Any]:
        if index not in blocks:
            blocks[index] = {"type": "text", "text": ""}
            order.append(index)
        return blocks[index]

    def append(index: int, field: str, value: Any) -> None:
        if isinstance(value, str):
            texts.setdefault(index, {}).setdefault(field, []).append(value)

    for event in events:
        kind = get_field(event, "type")
        if kind == "message_start":
            start = to_jsonable(get_field(event, "message"), use_dict_fallback=True)
            if isinstance(start, dict):
                for key in ("id", "model", "role", "stop_reason", "stop_sequence"):
                    if start.get(key) is not None:
                        message[key] = start[key]
                if isinstance(start.get("usage"), dict):
                    message["usage"].update(start["usage"])
        elif kind == "content_block_start":
            index = as_int(get_field(event, "index")) or 0
            block = to_jsonable(get_field(event, "content_block"), use_dict_fallback=True)
            if not isinstance(block, dict):
                block = {"type": "text", "text": ""}
            if index not in blocks:
                order.append(index)
            blocks[index] = block
        elif kind == "content_block_delta":
            index = as_int(get_field(event, "index")) or 0
            block = block_at(index)
            delta = get_field(event, "delta")
            delta_type = get_field(delta, "type")
            if delta_type == "text_delta":
                append(index, "text", get_field(delta, "text"))
            elif delta_type == "input_json_delta":
                append(index, "partial_json", get_field(delta, "partial_json"))
            elif delta_type == "thinking_delta":
                append(index, "thinking", get_field(delta, "thinking"))
            elif delta_type == "signature_delta":
                block["signature"] = get_field(delta, "signature")
            elif delta_type == "citations_delta":
                block.setdefault("citations", []).append(
                    to_jsonable(get_field(delta, "citation"), use_dict_fallback=True))
        elif kind == "message_delta":
            delta = get_field(event, "delta")
            for key in ("stop_reason", "stop_sequence"):
                value = get_field(delta, key)
                if value is not None:
                    message[key] = value
            usage = to_jsonable(get_field(event, "usage"), use_dict_fallback=True)
            if isinstance(usage, dict):
                message["usage"].update({k: v for k, v in usage.items() if v is not None})
        elif kind == "error":
            message["error"] = to_jsonable(get_field(event, "error"), use_dict_fallback=True)

    content: List[Dict[str, Any]] = []
    for index in sorted(order):
        block = blocks[index]
        pieces = texts.get(index, {})
        for field in ("text", "thinking"):
            if field in pieces:
                block[field] = (block.get(field) or "") + "".join(pieces[field])
        if "partial_json" in pieces:
            raw = "".join(pieces["partial_json"])
            try:
                block["input"] = json.loads(raw) if raw.strip() else {}
            except ValueError:
                block["input"] = {"_partial_json": raw}
        content.append(block)
    message["content"] = content
    message["event_count"] = len(events)
    prompt, completion = usage_tokens(message["usage"] or None)
    return message, prompt, completion, {}


def _is_token_event(event: Any) -> bool:
    return get_field(event, "type") == "content_block_delta"


SPEC = CallSpec(PROVIDER, extract_message, extract_events, _is_token_event)


class _StreamManagerProxy:
    """Wraps the ``MessageStreamManager`` returned by ``client.messages.stream(...)``.

    ``with``/``async with`` yields the SDK's own ``MessageStream`` unchanged; on exit the
    message accumulated so far (``current_message_snapshot``) is logged.
    """

    def __init__(self, manager: Any, kwargs: Dict[str, Any], request: Dict[str, Any],
                 session_id: Optional[str] = None) -> None:
        self._sl_manager = manager
        self._sl_session = session_id
        self._sl_kwargs = kwargs
        self._sl_request = request
        self._sl_stream: Any = None
        self._sl_started = time.time()
        self._sl_t0 = time.perf_counter()

    def _sl_begin(self) -> None:
        self._sl_started = time.time()
        self._sl_t0 = time.perf_counter()

    def _sl_log(self, error: Optional[BaseException]) -> None:
        try:
            snap: Any = None
            if self._sl_stream is not None:
                try:
                    snap = getattr(self._sl_stream, "current_message_snapshot", None)
                except Exception:  # the SDK asserts when no event arrived yet
                    snap = None
            latency = (time.perf_counter() - self._sl_t0) * 1000.0
            metadata: Dict[str, Any] = {"stream": True, "stream_helper": True}
            if self._sl_session is not None:
                metadata["session_id"] = self._sl_session
            _client.record(LogEntry(self._sl_kwargs.get("model"), PROVIDER, self._sl_request, snap,
                                    self._sl_started, latency, metadata, error, extract_message))
        except Exception:
            pass

    def __enter__(self) -> Any:
        self._sl_begin()
        try:
            self._sl_stream = self._sl_manager.__enter__()
        except Exception as exc:
            self._sl_log(exc)
            raise
        return self._sl_stream

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        try:
            return self._sl_manager.__exit__(exc_type, exc, tb)
        finally:
            self._sl_log(exc if isinstance(exc, Exception) else None)

    async def __aenter__(self) -> Any:
        self._sl_begin()
        try:
            self._sl_stream = await self._sl_manager.__aenter__()
        except Exception as exc:
            self._sl_log(exc)
            raise
        return self._sl_stream

    async def __aexit__(self, exc_type: Any, exc: Any, tb: Any) -> Any:
        try:
            return await self._sl_manager.__aexit__(exc_type, exc, tb)
        finally:
            self._sl_log(exc if isinstance(exc, Exception) else None)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_sl_"):
            raise AttributeError(name)
        return getattr(self._sl_manager, name)


def _wrap_stream_helper(original: Any, session_id: Optional[str]) -> Any:
    def stream(*args: Any, **given: Any) -> Any:
        kwargs, call_session = take_session_header(given)
        manager = original(*args, **kwargs)
        if _client.current_delivery_loop() is None:
            return manager
        try:
            return _StreamManagerProxy(manager, dict(kwargs), request_snapshot(args, kwargs),
                                       call_session or session_id)
        except Exception:
            return manager

    try:
        stream.__doc__ = original.__doc__
        stream.__name__ = getattr(original, "__name__", "stream")
        stream.__wrapped__ = original  # type: ignore[attr-defined]
    except Exception:
        pass
    setattr(stream, WRAPPED_MARK, True)
    return stream


def wrap_anthropic(client: C, *, session_id: Optional[str] = None) -> C:
    """Log every ``client.messages.create(...)`` / ``client.messages.stream(...)`` call.

    Works with ``anthropic.Anthropic`` and ``anthropic.AsyncAnthropic`` (and objects with
    the same shape). The client is patched in place (its ``messages`` resource) and
    returned, so ``client = wrap_anthropic(Anthropic())`` works. Wrapping twice is harmless.

    What the application sees does not change: the same ``Message`` object, the same
    stream events one by one, the same exceptions. Each call queues one record with
    ``provider="anthropic"``, the kwargs as ``request_body``, the message (or, for
    streams, the reassembled message plus ``event_count``) as ``response_body``, token
    usage, ``latency_ms`` and ``metadata.stream`` / ``metadata.ttft_ms``.

    Sessions: ``session_id`` puts every call of this client in one conversation
    (``metadata.session_id``); a call's ``extra_headers={"X-Sightline-Session-Id": id}``
    wins and is taken off before the request reaches Anthropic.

    Not covered: ``client.beta.messages`` and clients derived later with
    ``client.with_options(...)`` (wrap those too).

    Never raises; an object without ``messages`` is returned untouched.
    """
    try:
        messages = getattr(client, "messages", None)
        if messages is None:
            logger.debug("sightline: wrap_anthropic: object has no 'messages'")
            return client
        session = clean_session_id(session_id)
        patch_method(messages, "create", SPEC._replace(session_id=session))
        helper = getattr(messages, "stream", None)
        if callable(helper) and not getattr(helper, WRAPPED_MARK, False):
            setattr(messages, "stream", _wrap_stream_helper(helper, session))
    except Exception:
        logger.debug("sightline: wrap_anthropic failed", exc_info=True)
    return client
