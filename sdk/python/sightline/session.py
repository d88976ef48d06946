"""Sessions: the conversation a call belongs to.

A session id travels as ``metadata.session_id`` (direct mode, ``trace``) or as the
``X-Sightline-Session-Id`` header (proxy mode; the proxy stores it as
``metadata.session_id`` and never forwards it upstream). See docs/sessions.md.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

#: Header naming the session of one call (per client: ``session_id=``; per call: ``extra_headers``).
SESSION_HEADER = "X-Sightline-Session-Id"

#: Longest session id kept, in characters (longer ids are cut).
MAX_SESSION_ID_CHARS = 256


def clean_session_id(value: Any) -> Optional[str]:
    """A usable session id: a non-empty stripped string cut at ``MAX_SESSION_ID_CHARS``, else ``None``."""
    if not isinstance(value, str):
        return None
    text = value.strip()[:MAX_SESSION_ID_CHARS]
    return text or None


def _pop_header(headers: Any) -> Tuple[Any, Optional[str]]:
    if not isinstance(headers, dict):
        return headers, None
    for key in headers:
        if isinstance(key, str) and key.lower() == SESSION_HEADER.lower():
            rest = {k: v for k, v in headers.items() if k != key}
            return rest, clean_session_id(headers[key])
    return headers, None


def take_session_header(kwargs: Dict[str, Any]) -> Tuple[Dict[str, Any], Optional[str]]:
    """Read and remove the per-call session header from a provider call's kwargs.

    Looks in ``extra_headers`` (openai, anthropic) and ``request_options["additional_headers"]``
    (cohere), so the provider never receives it. Returns the kwargs to call the provider
    with (a copy when the header was present) and the session id found (``None`` if none).
    Never raises.
    """
    try:
        headers, found = _pop_header(kwargs.get("extra_headers"))
        if found is not None:
            return {**kwargs, "extra_headers": headers}, found
        options = kwargs.get("request_options")
        if isinstance(options, dict):
            extra, found = _pop_header(options.get("additional_headers"))
            if found is not None:
                return {**kwargs, "request_options": {**options, "additional_headers": extra}}, found
    except Exception:
        pass
    return kwargs, None
