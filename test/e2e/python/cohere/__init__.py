"""Stand-in for the ``cohere`` package (see ../README.md): ``ClientV2`` reading
``CO_API_KEY`` / ``CO_API_URL`` and ``chat`` (v2) over HTTP."""

from __future__ import annotations

import os
from typing import Any, List, Optional

from _provider_wire import APIStatusError, no_streaming, post_json

__all__ = ["ClientV2", "APIStatusError"]


class ClientV2:
    """``cohere.ClientV2(api_key=None, *, base_url=os.getenv("CO_API_URL", ...), ...)``."""

    def __init__(self, api_key: Optional[str] = None, *, base_url: Optional[str] = None, **_: Any) -> None:
        self.api_key = api_key or os.environ.get("CO_API_KEY") or ""
        self.base_url = str(base_url or os.environ.get("CO_API_URL") or "https://api.cohere.com").rstrip("/")

    def chat(self, *, model: str, messages: List[Any], **params: Any) -> Any:
        no_streaming(params)
        return post_json(self.base_url + "/v2/chat", {"model": model, "messages": messages, **params},
                         {"Authorization": "Bearer " + self.api_key})
