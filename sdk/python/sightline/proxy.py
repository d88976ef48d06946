"""Proxy mode: point an OpenAI-compatible client at the Sightline capture proxy.

The proxy (``{proxy_url}/v1/...``) forwards each request unchanged to the upstream
provider, streams the answer back, and logs the call itself. The client only needs a new
base URL and the ``X-Service-Key`` header; nothing is queued in this process.
"""

from __future__ import annotations

import copy
import logging
from typing import Any, Dict, Optional, TypeVar

from . import client as _client
from .session import SESSION_HEADER, clean_session_id

logger = logging.getLogger("sightline")

C = TypeVar("C")
HEADER = "X-Service-Key"


def proxy_base_url(proxy_url: str) -> str:
    """``{proxy_url}/v1`` without a doubled slash or a doubled ``/v1``."""
    base = proxy_url.rstrip("/")
    return base if base.endswith("/v1") else base + "/v1"


def with_proxy(openai_client: C, *, api_key: Optional[str] = None, proxy_url: Optional[str] = None,
               session_id: Optional[str] = None) -> C:
    """Return a copy of ``openai_client`` that sends its requests through the capture proxy.

    * Official ``openai`` clients (``OpenAI``, ``AsyncOpenAI``, >= 1.0) and look-alikes:
      ``client.with_options(base_url="{proxy_url}/v1", default_headers={"X-Service-Key": key})``
      (``copy(...)`` if there is no ``with_options``). Existing default headers are kept.
    * Any other object with a ``base_url`` attribute: a shallow copy with ``base_url``
      replaced (and ``X-Service-Key`` merged into a dict ``default_headers`` attribute if
      it has one).

    The original client is never modified. Args ``api_key`` / ``proxy_url`` override the
    configured values; ``session_id`` adds ``X-Sightline-Session-Id`` to every request (the
    proxy stores it as ``metadata.session_id`` and does not forward it; per call, pass it in
    ``extra_headers``). When the library is disabled, has no key, or the object cannot be
    redirected, the ORIGINAL client is returned (calls then go straight to the provider
    and are not logged) and the reason is logged at DEBUG level. Never raises.
    """
    try:
        cfg = _client.current_config()
        if not cfg.enabled:
            return openai_client
        key = api_key or cfg.api_key
        if not key:
            _client.warn_missing_key()
            return openai_client
        base = proxy_base_url(proxy_url or cfg.proxy_url)
        headers: Dict[str, str] = {HEADER: key}
        session = clean_session_id(session_id)
        if session is not None:
            headers[SESSION_HEADER] = session
        for method_name in ("with_options", "copy"):
            method = getattr(openai_client, method_name, None)
            if callable(method):
                try:
                    return method(base_url=base, default_headers=headers)  # type: ignore[no-any-return]
                except TypeError:
                    continue  # not the openai signature: try the next way
        if hasattr(openai_client, "base_url"):
            clone = copy.copy(openai_client)
            setattr(clone, "base_url", base)
            existing: Any = getattr(openai_client, "default_headers", None)
            if isinstance(existing, dict):
                setattr(clone, "default_headers", {**existing, **headers})
            return clone
        logger.debug("sightline: with_proxy: %r has no base_url; returned unchanged", type(openai_client))
    except Exception:
        logger.debug("sightline: with_proxy failed; client returned unchanged", exc_info=True)
    return openai_client
