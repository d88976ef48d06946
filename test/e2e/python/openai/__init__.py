"""Stand-in for the ``openai`` package (see ../README.md): ``OpenAI`` with the option
handling of openai >= 1 (``OPENAI_API_KEY``, ``OPENAI_BASE_URL``, ``with_options``) and
``chat.completions.create`` over HTTP."""

from __future__ import annotations

import os
from typing import Any, Dict, Optional

from _provider_wire import APIStatusError, Endpoint

__all__ = ["OpenAI", "OpenAIError", "APIStatusError"]


class OpenAIError(Exception):
    """Raised like the SDK's when no API key is given."""


class _Completions(Endpoint):
    path = "chat/completions"

    def headers(self) -> Dict[str, str]:
        return {"Authorization": "Bearer " + self._client.api_key, **self._client._custom_headers}


class _Chat:
    def __init__(self, client: "OpenAI") -> None:
        self.completions = _Completions(client)


class OpenAI:
    """``openai.OpenAI(api_key=None, base_url=None, default_headers=None, ...)``."""

    def __init__(self, *, api_key: Optional[str] = None, base_url: Optional[str] = None,
                 default_headers: Optional[Dict[str, str]] = None, **_: Any) -> None:
        key = api_key or os.environ.get("OPENAI_API_KEY")
        if not key:
            raise OpenAIError("The api_key client option must be set either by passing api_key to the "
                              "client or by setting the OPENAI_API_KEY environment variable")
        self.api_key = key
        base = str(base_url or os.environ.get("OPENAI_BASE_URL") or "https://api.openai.com/v1")
        self.base_url = base if base.endswith("/") else base + "/"  # the SDK keeps a trailing slash
        self._custom_headers: Dict[str, str] = dict(default_headers or {})
        self.chat = _Chat(self)

    def with_options(self, *, api_key: Optional[str] = None, base_url: Optional[str] = None,
                     default_headers: Optional[Dict[str, str]] = None, **_: Any) -> "OpenAI":
        """A NEW client; ``default_headers`` are merged into the existing ones, as in the SDK."""
        return OpenAI(api_key=api_key or self.api_key, base_url=base_url or self.base_url,
                      default_headers={**self._custom_headers, **(default_headers or {})})

    copy = with_options
