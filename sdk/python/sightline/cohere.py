"""Direct mode for Cohere clients (``cohere.Client``/``ClientV2`` and their async twins).

:func:`wrap_cohere` patches ``client.chat`` and ``client.chat_stream`` (and the same
methods on ``client.v2`` when present). Both API generations are understood:

* v1 ``chat(message=..., model=...)``: response ``text``, ``finish_reason``,
  ``meta.billed_units`` / ``meta.tokens``; stream events carry ``event_type``
  (``stream-start``, ``text-generation``, ``tool-calls-generation``, ``stream-end``...).
* v2 ``chat(model=..., messages=[...])``: response ``message.content[]``,
  ``finish_reason``, ``usage.billed_units`` / ``usage.tokens``; stream events carry
  ``type`` (``message-start``, ``content-delta``, ``tool-call-*``, ``message-end``...).

Token counts prefer ``billed_units`` and fall back to ``tokens``.
"""

from __future__ import annotations

import logging
from typing import Any, Dict, List, Optional, Tuple, TypeVar

from .wrap_method import CallSpec, patch_method
from .serialize import as_int, get_field, to_jsonable
from .session import clean_session_id

PROVIDER = "cohere"
logger = logging.getLogger("sightline")

C = TypeVar("C")


def usage_tokens(body: Any) -> Tuple[Optional[int], Optional[int]]:
    """(prompt_tokens, completion_tokens) from a v1 (``meta``) or v2 (``usage``) response."""
    if not isinstance(body, dict):
        return None, None
    for container in (body.get("usage"), body.get("meta")):
        if not isinstance(container, dict):
            continue
        for key in ("billed_units", "tokens"):
            units = container.get(key)
            if isinstance(units, dict):
                prompt = as_int(units.get("input_tokens"))
                completion = as_int(units.get("output_tokens"))
                if prompt is not None or completion is not None:
                    return prompt, completion
    return None, None


def extract_chat(raw: Any) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    """Extractor for a non-streamed chat response (v1 or v2)."""
    body = to_jsonable(raw, use_dict_fallback=True)
    prompt, completion = usage_tokens(body)
    return body, prompt, completion, {}


def _add_text(pieces: List[str], value: Any) -> None:
    if isinstance(value, str):
        pieces.append(value)


def _extend_json(items: List[Any], value: Any) -> None:
    found = to_jsonable(value, use_dict_fallback=True)
    if isinstance(found, list):
        items.extend(found)


def _extract_v1(events: List[Any]) -> Dict[str, Any]:
    texts: List[str] = []
    out: Dict[str, Any] = {"text": "", "generation_id": None, "finish_reason": None}
    tool_calls: List[Any] = []
    citations: List[Any] = []
    for event in events:
        kind = get_field(event, "event_type")
        if kind == "stream-start":
            out["generation_id"] = get_field(event, "generation_id")
        elif kind == "text-generation":
            _add_text(texts, get_field(event, "text"))
        elif kind == "tool-calls-generation":
            _extend_json(tool_calls, get_field(event, "tool_calls"))
        elif kind == "citation-generation":
            _extend_json(citations, get_field(event, "citations"))
        elif kind == "stream-end":
            out["finish_reason"] = get_field(event, "finish_reason")
            final = to_jsonable(get_field(event, "response"), use_dict_fallback=True)
            if isinstance(final, dict):
                for key in ("meta", "generation_id", "response_id", "chat_history"):
                    if final.get(key) is not None and not out.get(key):
                        out[key] = final[key]
                if not texts and isinstance(final.get("text"), str):
                    texts.append(final["text"])
    out["text"] = "".join(texts)
    if tool_calls:
        out["tool_calls"] = tool_calls
    if citations:
        out["citations"] = citations
    return out


def _extract_v2(events: List[Any]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"id": None, "finish_reason": None,
                           "message": {"role": "assistant", "content": []}}
    texts: Dict[int, List[str]] = {}
    plan: List[str] = []
    calls: Dict[int, Dict[str, Any]] = {}
    args: Dict[int, List[str]] = {}
    for event in events:
        kind = get_field(event, "type")
        index = as_int(get_field(event, "index")) or 0
        delta_message = get_field(get_field(event, "delta"), "message")
        if kind == "message-start":
            out["id"] = get_field(event, "id")
        elif kind in ("content-start", "content-delta"):
            _add_text(texts.setdefault(index, []), get_field(get_field(delta_message, "content"), "text"))
        elif kind == "tool-plan-delta":
            _add_text(plan, get_field(delta_message, "tool_plan"))
        elif kind == "tool-call-start":
            call = to_jsonable(get_field(delta_message, "tool_calls"), use_dict_fallback=True)
            calls[index] = call if isinstance(call, dict) else {}
        elif kind == "tool-call-delta":
            function = get_field(get_field(delta_message, "tool_calls"), "function")
            piece = get_field(function, "arguments")
            if isinstance(piece, str):
                args.setdefault(index, []).append(piece)
        elif kind == "message-end":
            delta = get_field(event, "delta")
            out["finish_reason"] = get_field(delta, "finish_reason")
            usage = to_jsonable(get_field(delta, "usage"), use_dict_fallback=True)
            if usage is not None:
                out["usage"] = usage
    out["message"]["content"] = [{"type": "text", "text": "".join(texts[i])} for i in sorted(texts)]
    if plan:
        out["message"]["tool_plan"] = "".join(plan)
    if calls:
        for index, call in calls.items():
            function = call.setdefault("function", {})
            if isinstance(function, dict) and index in args:
                function["arguments"] = (function.get("arguments") or "") + "".join(args[index])
        out["message"]["tool_calls"] = [calls[i] for i in sorted(calls)]
    return out


def extract_events(events: List[Any]) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    """Reassemble a chat response from stream events (v1 ``event_type`` or v2 ``type``).

    The result has the shape of the matching non-streamed response plus ``"event_count"``.
    """
    is_v1 = any(get_field(e, "event_type") is not None for e in events[:3])
    body = _extract_v1(events) if is_v1 else _extract_v2(events)
    body["event_count"] = len(events)
    prompt, completion = usage_tokens(body)
    return body, prompt, completion, {}


def _is_token_event(event: Any) -> bool:
    kind = get_field(event, "event_type") or get_field(event, "type")
    return kind in ("text-generation", "content-delta")


CHAT_SPEC = CallSpec(PROVIDER, extract_chat, extract_events, _is_token_event)
STREAM_SPEC = CallSpec(PROVIDER, extract_chat, extract_events, _is_token_event, always_stream=True)


def wrap_cohere(client: C, *, session_id: Optional[str] = None) -> C:
    """Log every ``client.chat(...)`` and ``client.chat_stream(...)`` call.

    Works with ``cohere.Client`` (v1), ``cohere.ClientV2`` (v2), ``client.v2`` and the
    async clients (``await client.chat(...)``, ``async for e in client.chat_stream(...)``).
    Patches the instance in place and returns it; wrapping twice is harmless.

    The application gets the provider's response object, stream events and exceptions
    unchanged. Each call queues one record with ``provider="cohere"``. When ``model`` is
    not passed (v1 allows that) the record's model is ``"unknown"``. ``session_id`` puts
    every call in one conversation (``metadata.session_id``); a call's
    ``request_options={"additional_headers": {"X-Sightline-Session-Id": id}}`` wins and is
    taken off before the request reaches Cohere.

    Never raises; an object without ``chat`` is returned untouched.
    """
    try:
        targets = [client]
        try:
            v2 = getattr(client, "v2", None)
        except Exception:
            v2 = None
        if v2 is not None and v2 is not client and callable(getattr(v2, "chat", None)):
            targets.append(v2)
        session = clean_session_id(session_id)
        for target in targets:
            patch_method(target, "chat", CHAT_SPEC._replace(session_id=session))
            patch_method(target, "chat_stream", STREAM_SPEC._replace(session_id=session))
    except Exception:
        logger.debug("sightline: wrap_cohere failed", exc_info=True)
    return client
