"""One logged call (:class:`LogEntry`) and its wire form for ``POST /internal/log``.

An entry is created on the application's thread with raw, cheap-to-collect values
(snapshotted kwargs, the provider's response object, timings). All conversion to JSON
happens later on the delivery thread through :meth:`LogEntry.encode`.
"""

from __future__ import annotations

import datetime as _dt
import json
from typing import Any, Callable, Dict, Optional, Tuple

from ._version import SDK_NAME
from .config import MAX_BODY_BYTES
from .serialize import as_int, error_info, estimate_tokens, to_jsonable

#: ``extract(raw_response) -> (response_body, prompt_tokens, completion_tokens, metadata)``;
#: token counts are ``None`` when the provider did not report them.
Extractor = Callable[[Any], Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]]

_PREVIEW_CHARS = 64 * 1024


def default_extractor(raw: Any) -> Tuple[Any, Optional[int], Optional[int], Dict[str, Any]]:
    """Extractor for unknown responses: JSON conversion only, no token counts."""
    return to_jsonable(raw, use_dict_fallback=True), None, None, {}


class LogEntry:
    """A logged call waiting in the queue.

    Attributes:
        model: model name (1..256 chars on the wire; ``"unknown"`` when empty).
        provider: ``"anthropic"``, ``"cohere"``, ``"custom"``, ...
        request: request payload (snapshot of kwargs), converted with ``repr`` fallbacks.
        response: raw provider response (or list of stream events, or traced output).
        started_at: ``time.time()`` when the call started (becomes ``created_at``).
        latency_ms: wall time of the call in milliseconds (for streams: until the end).
        metadata: extra metadata (``stream``, ``ttft_ms``, ``trace``, ...).
        error: the exception the call raised, or ``None``.
        extract: turns ``response`` into body + usage on the delivery thread.
    """

    __slots__ = ("model", "provider", "request", "response", "started_at", "latency_ms",
                 "metadata", "error", "extract")

    def __init__(
        self,
        model: Any,
        provider: str,
        request: Any,
        response: Any,
        started_at: float,
        latency_ms: float,
        metadata: Optional[Dict[str, Any]] = None,
        error: Optional[BaseException] = None,
        extract: Optional[Extractor] = None,
    ) -> None:
        self.model = model
        self.provider = provider
        self.request = request
        self.response = response
        self.started_at = started_at
        self.latency_ms = latency_ms
        self.metadata = metadata
        self.error = error
        self.extract = extract

    def to_payload(self) -> Dict[str, Any]:
        """Build the JSON object for ``POST /internal/log`` (delivery thread only).

        Raises:
            Exception: only from a broken extractor; the delivery loop reports it to ``on_error``.
        """
        request_body = to_jsonable(self.request)
        if not isinstance(request_body, dict):
            request_body = {"input": request_body}

        response_body: Any = None
        prompt: Optional[int] = None
        completion: Optional[int] = None
        extra: Dict[str, Any] = {}
        if self.response is not None:
            extract = self.extract or default_extractor
            response_body, prompt, completion, extra = extract(self.response)

        metadata: Dict[str, Any] = {"status": "error" if self.error is not None else "success"}
        if self.error is not None:
            metadata["error"] = error_info(self.error)
        if self.metadata:
            metadata.update(to_jsonable(self.metadata))
        if extra:
            metadata.update(to_jsonable(extra))

        if prompt is None and completion is None:
            prompt = estimate_tokens(request_body.get("messages", request_body))
            completion = estimate_tokens(response_body) if response_body is not None else 0
            metadata["token_count_source"] = "estimated"
        else:
            metadata.setdefault("token_count_source", "reported")
        metadata["sdk"] = SDK_NAME

        model = str(self.model) if self.model not in (None, "") else "unknown"
        created = _dt.datetime.fromtimestamp(self.started_at, _dt.timezone.utc)
        return {
            "model": model[:256],
            "provider": (str(self.provider) or "custom")[:256],
            "prompt_tokens": as_int(prompt) or 0,
            "completion_tokens": as_int(completion) or 0,
            "latency_ms": max(0, int(round(self.latency_ms))),
            "request_body": request_body,
            "response_body": response_body,
            "created_at": created.isoformat(timespec="milliseconds"),
            "metadata": metadata,
        }

    def encode(self, max_bytes: int = MAX_BODY_BYTES) -> bytes:
        """The UTF-8 JSON body, shrunk below ``max_bytes`` (the API answers 413 above 2 MiB).

        When too large, ``response_body`` and then ``request_body`` are replaced by
        ``{"_sightline_truncated": true, "original_bytes": n, "preview": "<first 64 KiB>"}``
        and ``metadata.truncated`` is set.
        """
        payload = self.to_payload()
        body = _dumps(payload)
        if len(body) <= max_bytes:
            return body
        payload["metadata"]["truncated"] = True
        for field in ("response_body", "request_body"):
            text = _dumps(payload[field]).decode("utf-8")
            payload[field] = {
                "_sightline_truncated": True,
                "original_bytes": len(text.encode("utf-8")),
                "preview": text[:_PREVIEW_CHARS],
            }
            body = _dumps(payload)
            if len(body) <= max_bytes:
                return body
        raise ValueError("sightline: record larger than %d bytes even after truncation" % max_bytes)


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
