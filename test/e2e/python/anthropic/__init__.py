"""Stand-in for the ``anthropic`` package (see ../README.md): ``Anthropic`` reading
``ANTHROPIC_API_KEY`` / ``ANTHROPIC_BASE_URL`` and ``messages.create`` over HTTP."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from _provider_wire import APIStatusError, Endpoint

__all__ = ["Anthropic", "APIStatusError"]


class _Messages(Endpoint):
    path = "/v1/messages"

    def headers(self) -> Dict[str, str]:
        return {"x-api-key": self._client.api_key, "anthropic-version": "2023-06-01"}


class Anthropic:
    """``anthropic.Anthropic(api_key=None, base_url=None, ...)``."""

    def __init__(self, *, api_key: Optional[str] = None, base_url: Optional[str] = None, **_: Any) -> None:
        self.api_key = api_key or os.environ.get("ANTHROPIC_API_KEY") or ""
        self.base_url = str(base_url or os.environ.get("ANTHROPIC_BASE_URL") or "https://api.anthropic.com").rstrip("/")
        self.messages = _Messages(self)
